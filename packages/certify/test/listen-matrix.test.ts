/**
 * The listen suite against its reference clients, each a separate process run by the real
 * runner: the well-behaved one passes every check; each broken variant, run with --only the check
 * it breaks, fails it for the reason it breaks it.
 */
import { certifyExample, expectFailsFor, verdicts } from './long-poll-matrix-support';

const LISTEN_CHECKS = [
  'auth-key-secret',
  'repoll-after-200',
  'repoll-after-204',
  'reauth-after-401',
  'backoff-on-5xx',
  'recover-after-reset',
  'no-hot-loop',
];

describe('certify listen: reference clients', () => {
  it('passes every check for the well-behaved consumer', async () => {
    const report = await certifyExample('listen', 'listen-client.mjs');
    expect(verdicts(report)).toEqual(Object.fromEntries(LISTEN_CHECKS.map((id) => [id, 'pass'])));
    expect(report.failed).toBe(0);
    expect(report.aborted).toBeUndefined();
  }, 70_000);

  const broken: ReadonlyArray<[string, string, RegExp]> = [
    ['listen-sleeps-after-204.mjs', 'repoll-after-204', /^waited \d+ ms after a 204 before polling again/],
    [
      'listen-never-reauthenticates.mjs',
      'reauth-after-401',
      /^did not authenticate again within 5 s of the 401/,
    ],
    ['listen-hot-loops-on-503.mjs', 'backoff-on-5xx', /^asked again \d+ ms after a 503 with Retry-After: 2$/],
  ];

  it.each(broken)(
    '%s fails %s, and for that reason',
    (script, id, reason) => expectFailsFor('listen', script, id, reason),
    30_000,
  );
});
