import type { CheckResult, Evidence, Scenario, ScenarioContext, TrafficOf } from '../../types';
import { evidenceOf, note, secs, verdict } from '../session/evidence';
import { awaitOpen, closesSince, nextClose, type SessionOpen } from '../session/sessions';
import { STOMP_CHECKS } from './checks';

/** The close code the simulator gives a session whose client stayed silent past its heart-beats. */
export const HEART_BEAT_TIMEOUT_CODE = 1008;
/** Intervals the session must outlive. */
export const INTERVALS = 3;
/**
 * The longest watch, from the CONNECT: the suite takes about 13 s without it, so even a client
 * negotiating minutes keeps the suite well under its minute.
 */
export const MAX_WATCH_MS = 30_000;
/** Past the third interval: time for the watchdog's tick to land and its close to reach certify. */
export const MARGIN_MS = 1_000;
/** Beyond the simulator's CONNECT deadline (WS_AUTH_TIMEOUT_MS), for the line to reach certify. */
const CONNECT_SLACK_MS = 1_000;

type Connected = TrafficOf<'stomp-connected'>;

/** How long a session that negotiated `expectEveryMs` is watched, and whether that proves three intervals. */
export function watchFor(expectEveryMs: number): { readonly watchMs: number; readonly proves: boolean } {
  const watchMs = Math.min((INTERVALS + 1) * expectEveryMs, MAX_WATCH_MS);
  return { watchMs, proves: watchMs >= INTERVALS * expectEveryMs + Math.min(expectEveryMs, MARGIN_MS) };
}

/** The longest interval that still gets a full watch: what a warning recommends. */
export const LONGEST_PROVEN_MS = Math.floor((MAX_WATCH_MS - MARGIN_MS) / INTERVALS);

/**
 * Watches the session for three of the heart-beat intervals its CONNECT negotiated, plus one:
 * the simulator's watchdog runs once an interval and closes a session silent for more than two,
 * so a client that never beats is closed by the third tick and the extra interval is margin for
 * a late timer. The watch is capped (MAX_WATCH_MS); an interval too long for three in the cap
 * is a warning, not a pass. Any heart-beat timeout earlier in the run fails the check too.
 */
export const heartBeatsScenario: Scenario = {
  name: 'heart-beats',
  checks: [STOMP_CHECKS.heartBeats],
  async run(ctx) {
    const info = STOMP_CHECKS.heartBeats;
    const open = await awaitOpen(ctx, 'stomp', 10_000);
    if (!open) return [verdict(info, 'skip', 'no STOMP session to watch (see connects-with-bearer)')];
    const connected = await connectOf(ctx, open);
    if (!connected) {
      return [
        verdict(info, 'skip', 'its STOMP session sent no CONNECT, so no heart-beats were negotiated', [
          evidenceOf(open),
        ]),
      ];
    }
    const seen = [evidenceOf(open), evidenceOf(connected)];
    const expectEvery = connected.expectEveryMs;
    if (expectEvery === 0) {
      return [timedOut(ctx, seen) ?? verdict(info, 'warn', noHeartBeats(connected), seen)];
    }
    const { watchMs, proves } = watchFor(expectEvery);
    const until = connected.at + watchMs;
    const closed = await nextClose(ctx, 'stomp', connected.at, Math.max(0, until - ctx.now()));
    const failed = timedOut(ctx, seen);
    if (failed) return [failed];
    if (closed && closed.at <= until) {
      return [
        verdict(
          info,
          'fail',
          `its session closed (${closed.code}) ${secs(closed.at - connected.at)} after its CONNECT, within the watch`,
          [...seen, evidenceOf(closed)],
        ),
      ];
    }
    if (ctx.signal.aborted) return [verdict(info, 'skip', 'the run was stopped while watching the session')];
    const kept = [...seen, note(until, 'session still open')];
    if (!proves) {
      return [
        verdict(
          info,
          'warn',
          `negotiated heart-beats every ${expectEvery} ms, watched ${secs(watchMs)} (certify's limit) without a timeout: ` +
            `too short for ${INTERVALS} intervals and a margin, so a shorter heart-beat is recommended (${LONGEST_PROVEN_MS} ms or less is watched in full)`,
          kept,
        ),
      ];
    }
    return [
      verdict(
        info,
        'pass',
        `its session stayed open ${secs(watchMs)} after its CONNECT (${(watchMs / expectEvery).toFixed(1)} heart-beat intervals of the ${expectEvery} ms it negotiated) without a timeout`,
        kept,
      ),
    ];
  },
};

/** The CONNECT of this session: the simulator closes a session without one after its deadline. */
function connectOf(ctx: ScenarioContext, open: SessionOpen): Promise<Connected | undefined> {
  const deadline = open.at + ctx.timings.authTimeoutMs + CONNECT_SLACK_MS;
  return ctx.traffic.next('stomp-connected', (e) => e.user === ctx.user.key, {
    since: open.at,
    timeoutMs: Math.max(0, deadline - ctx.now()),
  });
}

/** A fail for any heart-beat timeout of the user's sessions so far in the run. */
function timedOut(ctx: ScenarioContext, seen: readonly Evidence[]): CheckResult | undefined {
  const closes = closesSince(ctx, 'stomp').filter(
    (e) => e.code === HEART_BEAT_TIMEOUT_CODE && e.at <= ctx.now(),
  );
  if (closes.length === 0) return undefined;
  return verdict(
    STOMP_CHECKS.heartBeats,
    'fail',
    `the server timed its session out (${HEART_BEAT_TIMEOUT_CODE}) for missing the heart-beats it negotiated`,
    [...seen, ...closes.map(evidenceOf)],
  );
}

function noHeartBeats(connected: Connected): string {
  const why = connected.version === '1.0' ? ' (STOMP 1.0 has none: accept 1.1 or 1.2)' : '';
  return `negotiated no heart-beats: the server cannot tell a dead connection from a quiet one${why}`;
}
