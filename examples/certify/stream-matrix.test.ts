import type { CertifyReport as Report } from 'racedata-sim';
import { certifyMatrix, expectFailsFor, expectPassesAll, type BrokenCase } from './matrix-support';

/** Every check of the suite, in order, and what its pass says for the good client. */
const STREAM_CHECKS: ReadonlyArray<readonly [string, RegExp]> = [
  ['auth-key-secret', /^authenticated with its key and secret, then opened its event-stream session/],
  ['token-within-deadline', /^sent its token \d+ ms after connecting \(deadline 3000 ms\)$/],
  ['ignores-ping', /^kept its session open across 3 Pings/],
  ['receives-all', /^printed all 5 messages sent while it was connected$/],
  ['tolerates-unknown', /^printed the normal message sent after each of 5 messages it has never seen \(/],
  [
    'detects-silent-stream',
    /^closed the silent session \d\.\d s after the simulator's last message to it and had a new one \d\.\d s after it \(limit 8\.0 s/,
  ],
  ['reconnect-after-close', /^reconnected and authenticated \d\.\d s after the server closed its session$/],
  ['reauth-on-auth-error', /^authenticated again after \d connection\(s\) refused with AuthenticationError/],
  [
    'survives-restart',
    /^back \d\.\d s after the simulator returned \(\d+ attempt\(s\) in the last 2\.5 s away/,
  ],
  ['no-hot-loop', /^\d+ attempt\(s\) in 4\.0 s while refused, at most [0-3] in any second/],
];

const BROKEN: readonly BrokenCase[] = [
  ['stream-drops-on-ping.mjs', 'ignores-ping', /^closed its session \(code 1000\) .* after 1 Ping/],
  [
    'stream-never-reconnects.mjs',
    'reconnect-after-close',
    /^no new session within 5\.0 s of the server closing it$/,
  ],
  [
    'stream-no-ping-watchdog.mjs',
    'detects-silent-stream',
    /^kept the silent session open and opened no new one for 8\.0 s after the simulator's last message to it \(3 Ping intervals of 1000 ms plus 5\.0 s\): it does not notice that the Pings stopped$/,
  ],
  [
    'stream-throws-on-unknown-type.mjs',
    'tolerates-unknown',
    /^exited with code 1 \d\.\d s after certify sent a message type it does not know$/,
  ],
];

describe('certify stream: the reference clients', () => {
  let runs: { good: Report; broken: Map<string, Report> };
  beforeAll(async () => {
    runs = await certifyMatrix('stream', 'stream-client.mjs', BROKEN);
  }, 120_000);

  it('passes the well-behaved client on every check, each for its reason', () => {
    expectPassesAll(runs.good, STREAM_CHECKS);
  });

  it.each(BROKEN)('%s fails %s, and for that reason', (script, id, reason) => {
    expectFailsFor(runs.broken.get(script) as Report, id, reason);
  });
});
