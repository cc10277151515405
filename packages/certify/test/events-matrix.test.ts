/**
 * The events suite against its reference clients, each a separate process run by the real
 * runner: the well-behaved one passes every check; each broken variant, run with --only the check
 * it breaks, fails it for the reason it breaks it.
 */
import { check, certifyExample, expectFailsFor, verdicts } from './long-poll-matrix-support';

const EVENTS_CHECKS = [
  'auth-key-secret',
  'repoll-after-200',
  'repoll-after-204',
  'backlog-complete',
  'reauth-after-401',
  'backoff-on-5xx',
  'recover-after-reset',
  'follows-last-event-id',
  'no-hot-loop',
];

describe('certify events: reference clients', () => {
  it('passes every check for the well-behaved consumer', async () => {
    const report = await certifyExample('events', 'events-client.mjs');
    expect(verdicts(report)).toEqual(Object.fromEntries(EVENTS_CHECKS.map((id) => [id, 'pass'])));
    expect(report.failed).toBe(0);
    expect(report.aborted).toBeUndefined();
    expect(check(report, 'backlog-complete').summary).toMatch(/^fetched all 350 events in \d+ pages/);
  }, 70_000);

  const broken: ReadonlyArray<[string, string, RegExp]> = [
    [
      'events-forgets-last-event-id.mjs',
      'follows-last-event-id',
      /^sent lastEventId=0 after receiving event \d+$/,
    ],
    ['events-sleeps-after-204.mjs', 'repoll-after-204', /^waited \d+ ms after a 204 before polling again/],
    [
      'events-never-reauthenticates.mjs',
      'reauth-after-401',
      /^did not authenticate again within 5 s of the 401/,
    ],
    ['events-hot-loops-on-503.mjs', 'backoff-on-5xx', /^asked again \d+ ms after a 503 with Retry-After: 2$/],
    ['events-ignores-has-more.mjs', 'backlog-complete', /^waited \d+ ms after a page that said hasMore/],
  ];

  it.each(broken)(
    '%s fails %s, and for that reason',
    (script, id, reason) => expectFailsFor('events', script, id, reason),
    30_000,
  );
});
