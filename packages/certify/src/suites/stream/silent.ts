import { EVENT_STREAM_PATH } from '@racedata/json-sim';
import type { CheckResult, Scenario, ScenarioContext } from '../../types';
import { evidenceOf, secs, verdict } from '../session/evidence';
import { awaitOpen, nextClose, nextOpen } from '../session/sessions';
import { recover, silenceSessions } from '../session/silence';
import { STREAM_CHECKS } from './checks';

/** Ping intervals, and the margin after them, within which the client must be back. */
export const SILENT_PINGS = 3;
export const SILENT_MARGIN_MS = 5_000;

/**
 * detects-silent-stream: once a Ping has reached it, the client's session is silenced at
 * certify's front door: no Ping, no data, the socket open, as after a NAT or a proxy dropped the
 * flow. The client must close it and have a new authenticated session within 3 Ping intervals
 * plus 5 s of the last message the simulator sent it.
 */
export const silentScenario: Scenario = {
  name: 'silent connection',
  checks: [STREAM_CHECKS.detectsSilence],
  async run(ctx) {
    return [await play(ctx)];
  },
};

async function play(ctx: ScenarioContext): Promise<CheckResult> {
  const info = STREAM_CHECKS.detectsSilence;
  const interval = ctx.timings.pingIntervalMs;
  const open = await awaitOpen(ctx, 'event-stream', 10_000);
  if (!open) return verdict(info, 'skip', 'no open session to silence (see reconnect-after-close)');
  // A Ping first (the simulator sends one an interval after authenticating): what stops is a
  // flow of Pings the client has seen.
  const pinged = open.at + interval + interval / 4;
  if (ctx.now() < pinged) await ctx.wait(pinged - ctx.now());
  const silenced = silenceSessions(ctx, [EVENT_STREAM_PATH]);
  if (!silenced) return verdict(info, 'skip', 'its session closed before certify could silence it');
  const limit = SILENT_PINGS * interval + SILENT_MARGIN_MS;
  const deadline = silenced.lastAt + limit;
  const bound = `${secs(limit)}: ${SILENT_PINGS} Ping intervals of ${interval} ms plus ${secs(SILENT_MARGIN_MS)}`;
  const evidence = [evidenceOf(open), ...silenced.evidence];
  const left = () => Math.max(0, deadline - ctx.now());
  const closedAny = await nextClose(ctx, 'event-stream', silenced.at, left());
  const reopenedAny = await nextOpen(ctx, 'event-stream', silenced.at, left());
  if (closedAny) evidence.push(evidenceOf(closedAny));
  if (reopenedAny) evidence.push(evidenceOf(reopenedAny));
  // Only what came within the limit counts.
  const closed = closedAny && closedAny.at <= deadline ? closedAny : undefined;
  const reopened = reopenedAny && reopenedAny.at <= deadline ? reopenedAny : undefined;
  const since = (at: number) => secs(at - silenced.lastAt);
  const last = "the simulator's last message to it";
  const within = `${SILENT_PINGS} Ping intervals of ${interval} ms plus ${secs(SILENT_MARGIN_MS)}`;
  let result: CheckResult;
  if (closed && reopened) {
    result = verdict(
      info,
      'pass',
      `closed the silent session ${since(closed.at)} after ${last} and had a new one ${since(reopened.at)} after ` +
        `it (limit ${bound})`,
      evidence,
    );
  } else if (!closed && !reopened) {
    result = verdict(
      info,
      'fail',
      `kept the silent session open and opened no new one for ${secs(limit)} after ${last} (${within}): it does ` +
        'not notice that the Pings stopped',
      evidence,
    );
  } else if (closed) {
    result = verdict(
      info,
      'fail',
      `closed the silent session ${since(closed.at)} after ${last} but had no new authenticated session within ` +
        `${secs(limit)} of it (${within})`,
      evidence,
    );
  } else {
    result = verdict(
      info,
      'fail',
      `opened a new session ${since((reopened as { at: number }).at)} after ${last} but did not close the silent ` +
        `one within ${secs(limit)} of it (${within})`,
      evidence,
    );
  }
  await recover(ctx, 'event-stream', silenced.at, !closedAny);
  return result;
}
