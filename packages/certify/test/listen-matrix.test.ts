/**
 * The listen suite against its reference clients, each a separate process run by the real
 * runner, all side by side: the well-behaved one passes every check, for the reason it should;
 * each broken variant, run with --only the check it breaks, fails it for the reason it breaks it.
 */
import type { Report } from '../src/types';
import { certifyMatrix, check, expectFailsFor, verdicts, type BrokenCase } from './long-poll-matrix-support';

const LISTEN_CHECKS: ReadonlyArray<readonly [string, RegExp]> = [
  ['auth-key-secret', /^authenticated \(POST \/customerapi\/authenticate\/subscription -> 200\) and polled/],
  ['repoll-after-200', /^polled again within \d+ ms after a 200/],
  ['repoll-after-204', /^polled again within \d+ ms after a 204/],
  ['reauth-after-401', /^authenticated again \d+ ms after the 401 and resumed$/],
  ['backoff-on-5xx', /^waited at least Retry-After after each of 3 503 answers/],
  ['recover-after-reset', /^polled again \d+ ms after the reset and resumed with nothing skipped$/],
  [
    'gives-up-on-stalled-poll',
    /^gave up on the stalled poll after \d+ ms and polled again \d+ ms after it began \(limit 9000 ms\), resuming where it was$/,
  ],
  ['tolerates-unknown', /^printed the normal message sent after each of 4 messages it has never seen \(/],
  [
    'survives-restart',
    /^polled again \d\.\d s after the simulator returned and got all 5 messages published around the outage \(/,
  ],
  ['no-hot-loop', /^at most \d+ requests in any second over \d+ requests$/],
];

const BROKEN: readonly BrokenCase[] = [
  ['listen-sleeps-after-204.mjs', 'repoll-after-204', /^waited \d+ ms after a 204 before polling again/],
  [
    'listen-never-reauthenticates.mjs',
    'reauth-after-401',
    /^did not authenticate again within 5 s of the 401/,
  ],
  ['listen-hot-loops-on-503.mjs', 'backoff-on-5xx', /^asked again \d+ ms after a 503 with Retry-After: 2$/],
  [
    'listen-no-request-timeout.mjs',
    'gives-up-on-stalled-poll',
    /^never gave up on a poll left unanswered for 9 s \(two long-poll limits of 2000 ms plus 5 s\): it has no request timeout$/,
  ],
];

describe('certify listen: reference clients', () => {
  let runs: { good: Report; broken: Map<string, Report> };
  beforeAll(async () => {
    runs = await certifyMatrix('listen', 'listen-client.mjs', BROKEN);
  }, 110_000);

  it('passes every check for the well-behaved consumer, each for its reason', () => {
    const report = runs.good;
    expect(verdicts(report)).toEqual(Object.fromEntries(LISTEN_CHECKS.map(([id]) => [id, 'pass'])));
    for (const [id, reason] of LISTEN_CHECKS) expect(check(report, id).summary).toMatch(reason);
    expect(report.failed).toBe(0);
    expect(report.aborted).toBeUndefined();
  });

  it.each(BROKEN)('%s fails %s, and for that reason', (script, id, reason) => {
    expectFailsFor(runs.broken.get(script) as Report, id, reason);
  });
});
