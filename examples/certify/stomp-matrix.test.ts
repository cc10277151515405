import type { CertifyReport as Report } from 'racedata-sim';
import { certifyMatrix, expectFailsFor, expectPassesAll, type BrokenCase } from './matrix-support';

/** Every check of the suite, in order, and what its pass says for the good client. */
const STOMP_CHECKS: ReadonlyArray<readonly [string, RegExp]> = [
  ['auth-key-secret', /^authenticated with its key and secret, then opened its STOMP session/],
  ['connects-with-bearer', /^sent Authorization: Bearer on the upgrade and was let in$/],
  ['subscribes', /^subscribed: a NonDurable message reached it \d\.\d s after its session opened$/],
  ['receives-all', /^printed all 5 messages sent while it was connected$/],
  ['tolerates-unknown', /^printed the normal message sent after each of 4 messages it has never seen \(/],
  ['heart-beats', /^its session stayed open 4\.0 s after its CONNECT/],
  [
    'detects-silent-session',
    /^dropped the silent session \d\.\d s after the last heart-beat and was subscribed again \d\.\d s after it \(limit 9\.0 s: 2 heart-beat intervals of 2000 ms plus 5\.0 s, plus 1\.0 s for the probe\)$/,
  ],
  ['reconnect-after-close', /^reconnected after \d\.\d s and was subscribed again \d\.\d s after the close$/],
  [
    'survives-restart',
    /^back \d\.\d s after the simulator returned \(\d+ attempt\(s\) in the last 2\.5 s away/,
  ],
  ['no-hot-loop', /^\d+ attempt\(s\) in 4\.0 s while refused, at most [0-3] in any second/],
];

const BROKEN: readonly BrokenCase[] = [
  [
    'stomp-never-reconnects.mjs',
    'reconnect-after-close',
    /^no new session within 5\.0 s of the server closing it$/,
  ],
  ['stomp-no-resubscribe.mjs', 'reconnect-after-close', /^reconnected after .* but never subscribed again/],
  [
    'stomp-silent-heart-beats.mjs',
    'heart-beats',
    /^the server timed its session out \(1008\) for missing the heart-beats it negotiated$/,
  ],
  [
    'stomp-ignores-missing-heart-beats.mjs',
    'detects-silent-session',
    /^kept the silent session open 9\.0 s after the server's last heart-beat \(2 of the 2000 ms intervals it negotiated, plus 5\.0 s\): it does not act on the heart-beats it asked for$/,
  ],
];

describe('certify stomp: the reference clients', () => {
  let runs: { good: Report; broken: Map<string, Report> };
  beforeAll(async () => {
    runs = await certifyMatrix('stomp', 'stomp-client.mjs', BROKEN);
  }, 120_000);

  it('passes the well-behaved client on every check, each for its reason', () => {
    expectPassesAll(runs.good, STOMP_CHECKS);
  });

  it.each(BROKEN)('%s fails %s, and for that reason', (script, id, reason) => {
    expectFailsFor(runs.broken.get(script) as Report, id, reason);
  });
});
