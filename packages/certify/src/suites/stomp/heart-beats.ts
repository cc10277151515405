import type { Scenario } from '../../types';
import { evidenceOf, note, secs, verdict } from '../session/evidence';
import { awaitOpen, closesSince, nextClose } from '../session/sessions';
import { STOMP_CHECKS } from './checks';

/** The close code the simulator gives a session whose client stayed silent past its heart-beats. */
export const HEART_BEAT_TIMEOUT_CODE = 1008;
/** Intervals the session must outlive. */
export const INTERVALS = 3;

/**
 * Watches the session for three heart-beat intervals at the server's offer, plus one: the
 * simulator's watchdog runs once an interval and closes a session silent for more than two, so
 * a client that never beats is closed by the third tick and the extra interval is margin for a
 * late timer. A client negotiating a longer interval than the offer is watched that long only
 * here; any heart-beat timeout earlier in the run fails the check too.
 */
export const heartBeatsScenario: Scenario = {
  name: 'heart-beats',
  checks: [STOMP_CHECKS.heartBeats],
  async run(ctx) {
    const info = STOMP_CHECKS.heartBeats;
    const interval = ctx.timings.stompHeartBeatMs;
    const open = await awaitOpen(ctx, 'stomp', 10_000);
    if (!open) return [verdict(info, 'skip', 'no STOMP session to watch (see connects-with-bearer)')];
    const until = open.at + (INTERVALS + 1) * interval;
    const closed = await nextClose(ctx, 'stomp', open.at, Math.max(0, until - ctx.now()));
    const timedOut = closesSince(ctx, 'stomp').filter(
      (e) => e.code === HEART_BEAT_TIMEOUT_CODE && e.at <= ctx.now(),
    );
    if (timedOut[0]) {
      return [
        verdict(
          info,
          'fail',
          `the server timed its session out (${HEART_BEAT_TIMEOUT_CODE}) for missing the heart-beats it negotiated`,
          [evidenceOf(open), ...timedOut.map(evidenceOf)],
        ),
      ];
    }
    if (closed && closed.at <= until) {
      return [
        verdict(
          info,
          'fail',
          `its session closed (${closed.code}) ${secs(closed.at - open.at)} into the watch`,
          [evidenceOf(open), evidenceOf(closed)],
        ),
      ];
    }
    if (ctx.signal.aborted) return [verdict(info, 'skip', 'the run was stopped while watching the session')];
    return [
      verdict(
        info,
        'pass',
        `its session stayed open ${secs(until - open.at)} (${INTERVALS} heart-beat intervals of ${interval} ms and one of margin) without a timeout`,
        [evidenceOf(open), note(until, 'session still open')],
      ),
    ];
  },
};
