import type { Scenario } from '../../types';
import { evidenceOf, note, secs, verdict } from '../session/evidence';
import { awaitOpen, nextClose } from '../session/sessions';
import { STREAM_CHECKS } from './checks';

/** Pings the session must outlive; the server sends the first one an interval after authenticating. */
export const PINGS = 3;

/** Holds the session across several Pings: a client that treats a Ping as data or as an error shows it. */
export const pingsScenario: Scenario = {
  name: 'pings',
  checks: [STREAM_CHECKS.ignoresPing],
  async run(ctx) {
    const info = STREAM_CHECKS.ignoresPing;
    const interval = ctx.timings.pingIntervalMs;
    const open = await awaitOpen(ctx, 'event-stream', 10_000);
    if (!open)
      return [
        verdict(
          info,
          'skip',
          'no open session to watch (see token-within-deadline and reconnect-after-close)',
        ),
      ];
    // Half an interval past the last Ping: time for a client that reacts to it to close.
    const until = open.at + PINGS * interval + interval / 2;
    const closed = await nextClose(ctx, 'event-stream', open.at, Math.max(0, until - ctx.now()));
    if (closed && closed.at <= until) {
      const pings = Math.floor((closed.at - open.at) / interval);
      return [
        verdict(
          info,
          'fail',
          `closed its session (code ${closed.code}) ${secs(closed.at - open.at)} after it opened, after ${pings} Ping(s) every ${interval} ms`,
          [evidenceOf(open), evidenceOf(closed)],
        ),
      ];
    }
    if (ctx.signal.aborted) return [verdict(info, 'skip', 'the run was stopped while watching the session')];
    return [
      verdict(
        info,
        'pass',
        `kept its session open across ${PINGS} Pings (${secs(until - open.at)}, a Ping every ${interval} ms)`,
        [evidenceOf(open), note(until, `session still open after ${PINGS} Pings`)],
      ),
    ];
  },
};
