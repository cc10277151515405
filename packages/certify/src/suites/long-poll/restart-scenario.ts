/**
 * survives-restart for the long polls: messages are stored while the client's poll waits at a
 * hold rule, then the simulator goes away (the held poll dropped with every other connection)
 * and comes back with its state. The client must be polling again within BACK_WITHIN_MS of the
 * return, from where it was, and get every message stored meanwhile and one published after.
 */
import type { CheckResult, Evidence, Scenario, ScenarioContext } from '../../types';
import { survivesRestart } from '../restart/check-info';
import { BACK_WITHIN_MS, playOutage, retriesText } from '../restart/outage';
import { secs } from '../session/evidence';
import { LONG_POLL_LIMITS as L } from './limits';
import { holdNextPoll } from './hold';
import type { LongPollKind, Published } from './poll-kind';
import { checkResult, defineScenario } from './scenario-kit';
import { clientRequests, nextClientRequest, noteEvidence, requestEvidence } from './requests';

/** Messages waiting for the client when the simulator goes away. */
export const STORED_DURING_OUTAGE = 3;

export function restartScenario(kind: LongPollKind): Scenario {
  const info = survivesRestart(kind.suite);
  const scenario = defineScenario('the simulator restarts', [info], async (ctx) => [await play(ctx)]);
  return { ...scenario, gradesClientExit: true };

  async function play(ctx: ScenarioContext): Promise<CheckResult> {
    const evidence: Evidence[] = [];
    const fail = (summary: string, lines: readonly Evidence[]) => checkResult(info, 'fail', summary, lines);
    const held = await holdNextPoll(ctx, kind, L.deliveryTimeoutMs + ctx.timings.longPollTimeoutMs, evidence);
    let played: Awaited<ReturnType<typeof playOutage>>;
    const waiting: Published[] = [held.wake];
    try {
      for (let i = 0; i < STORED_DURING_OUTAGE; i++) {
        const message = await kind.publish(ctx);
        waiting.push(message);
        evidence.push(kind.publishedEvidence(message));
      }
      played = await playOutage(ctx, info, evidence);
    } finally {
      // Used up, and holding nothing once its poll was dropped; gone before anything else is graded.
      await ctx.control.deleteFault(held.id).catch(() => undefined);
    }
    if ('result' in played) return played.result;
    const { outcome } = played;
    const lines = played.evidence;
    const backAt = outcome.backAt as number;
    const after = await kind.publish(ctx);
    lines.push(kind.publishedEvidence(after));
    const last = waiting[waiting.length - 1];
    if (after.eventId !== undefined && last?.eventId !== undefined) {
      lines.push(
        noteEvidence(
          after.at,
          `eventIds continue across the restart: ${last.eventId} before, ${after.eventId} after`,
        ),
      );
    }
    const first = await nextClientRequest(
      ctx,
      (event) => kind.isPoll(event) && event.at >= backAt,
      BACK_WITHIN_MS + ctx.timings.longPollTimeoutMs + L.deliveryTimeoutMs,
    );
    if (!first || first.at > backAt + BACK_WITHIN_MS) {
      if (first) lines.push(requestEvidence(first, `${first.at - backAt} ms after the return`));
      return fail(
        `gave up: no ${kind.routeName} within ${secs(BACK_WITHIN_MS)} of the simulator's return (${retriesText(outcome)})`,
        lines,
      );
    }
    lines.push(requestEvidence(first, `its first poll, ${first.at - backAt} ms after the return`));
    const problem = kind.resumeProblem(first, clientRequests(ctx).filter(kind.isPoll));
    if (problem) return fail(`polled again but not from where it was: ${problem}`, lines);
    for (const message of [...waiting, after]) {
      if (!(await kind.awaitDelivery(ctx, message, L.deliveryTimeoutMs))) {
        const missed =
          kind.suite === 'events'
            ? `${message.label} was never fetched: an eventId gap`
            : `${message.label} was never delivered: its queue was not drained`;
        return fail(`polled again ${secs(first.at - backAt)} after the return, but ${missed}`, lines);
      }
    }
    return checkResult(
      info,
      'pass',
      `polled again ${secs(first.at - backAt)} after the simulator returned and got all ${waiting.length + 1} ` +
        `messages published around the outage (${retriesText(outcome)})`,
      lines,
    );
  }
}
