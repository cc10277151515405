/**
 * The events suite against its reference clients, each a separate process run by the real
 * runner, all side by side: the well-behaved one passes every check, for the reason it should;
 * each broken variant, run with --only the check it breaks, fails it for the reason it breaks it.
 */
import type { Report } from '../src/types';
import { certifyMatrix, check, expectFailsFor, verdicts, type BrokenCase } from './long-poll-matrix-support';

/** Every check of the suite, in order, and what its pass says for the good client. */
const EVENTS_CHECKS: ReadonlyArray<readonly [string, RegExp]> = [
  ['auth-key-secret', /^authenticated \(POST \/customerapi\/authenticate\/subscription -> 200\) and polled/],
  ['repoll-after-200', /^polled again within \d+ ms after a 200/],
  ['repoll-after-204', /^polled again within \d+ ms after a 204/],
  ['backlog-complete', /^fetched all 350 events in \d+ pages, following hasMore, none twice$/],
  ['reauth-after-401', /^authenticated again \d+ ms after the 401 and resumed from lastEventId=\d+$/],
  ['backoff-on-5xx', /^waited at least Retry-After after each of 3 503 answers/],
  ['recover-after-reset', /^polled again \d+ ms after the reset and resumed with nothing skipped$/],
  [
    'gives-up-on-stalled-poll',
    /^gave up on the stalled poll after \d+ ms and polled again \d+ ms after it began \(limit 9000 ms\), resuming where it was$/,
  ],
  ['tolerates-unknown', /^printed the normal message sent after each of 4 messages it has never seen \(/],
  [
    'survives-restart',
    /^polled again \d\.\d s after the simulator returned and got all 5 messages published around the outage \(\d+ attempt\(s\) in the last 2\.5 s away, at most [0-3] in any second\)$/,
  ],
  [
    'follows-last-event-id',
    /^each of \d+ polls after a delivery carried the highest eventId delivered before it$/,
  ],
  ['no-hot-loop', /^at most \d+ requests in any second over \d+ requests$/],
];

const BROKEN: readonly BrokenCase[] = [
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
  [
    'events-no-request-timeout.mjs',
    'gives-up-on-stalled-poll',
    /^never gave up on a poll left unanswered for 9 s \(two long-poll limits of 2000 ms plus 5 s\): it has no request timeout$/,
  ],
  [
    'events-exits-on-refused.mjs',
    'survives-restart',
    /^exited with code 1 \d\.\d s after the simulator went away: a server that restarts ends it$/,
  ],
];

describe('certify events: reference clients', () => {
  let runs: { good: Report; broken: Map<string, Report> };
  beforeAll(async () => {
    runs = await certifyMatrix('events', 'events-client.mjs', BROKEN);
  }, 110_000);

  it('passes every check for the well-behaved consumer, each for its reason', () => {
    const report = runs.good;
    expect(verdicts(report)).toEqual(Object.fromEntries(EVENTS_CHECKS.map(([id]) => [id, 'pass'])));
    for (const [id, reason] of EVENTS_CHECKS) expect(check(report, id).summary).toMatch(reason);
    expect(report.failed).toBe(0);
    expect(report.aborted).toBeUndefined();
  });

  it.each(BROKEN)('%s fails %s, and for that reason', (script, id, reason) => {
    expectFailsFor(runs.broken.get(script) as Report, id, reason);
  });

  it('reports why a run ended when the client exits on a refused connection', () => {
    expect(runs.broken.get('events-exits-on-refused.mjs')?.aborted).toMatch(
      /^client exited with code 1 after \d+ ms; its last stderr lines:\n.*the server refused the connection; giving up$/s,
    );
  });
});
