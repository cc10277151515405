/**
 * gives-up-on-stalled-poll: a hold rule takes the client's next poll and never answers it (no
 * 204 at the limit, not a byte), as a proxy or a half-dead server does. The client must give up
 * on it after a timeout of its own, derived from the long-poll limit it was given
 * (RACEDATA_LONG_POLL_MS), and poll again within two limits plus 5 s of that poll's start, from
 * where it was; the messages published around it must then arrive.
 */
import type { CheckResult, Evidence, Scenario, ScenarioContext } from '../../types';
import { givesUpOnStalledPoll, STALL_MARGIN_MS } from './stalled-check';
import { LONG_POLL_LIMITS as L } from './limits';
import { holdNextPoll } from './hold';
import type { LongPollKind, Published } from './poll-kind';
import { checkResult, defineScenario } from './scenario-kit';
import {
  clientRequests,
  followerOf,
  nextClientRequest,
  noteEvidence,
  requestEvidence,
  wasCut,
  type RequestEvent,
} from './requests';

/** Within this of the stalled poll's start the client must have polled again. */
export function stallLimitMs(longPollMs: number): number {
  return 2 * longPollMs + STALL_MARGIN_MS;
}

export function stalledScenario(kind: LongPollKind): Scenario {
  const info = givesUpOnStalledPoll(kind.suite);
  return defineScenario('a poll is never answered', [info], async (ctx) => [await play(ctx)]);

  async function play(ctx: ScenarioContext): Promise<CheckResult> {
    const evidence: Evidence[] = [];
    const result = (status: 'pass' | 'fail' | 'warn' | 'skip', summary: string) =>
      checkResult(info, status, summary, evidence);
    const limit = ctx.timings.longPollTimeoutMs;
    const within = stallLimitMs(limit);
    const ruleAt = ctx.now();
    evidence.push(noteEvidence(ruleAt, 'certify will take the next poll and never answer it'));
    const held = await holdNextPoll(ctx, kind, L.deliveryTimeoutMs + limit, evidence);
    let stalled: RequestEvent | undefined;
    let during: Published | undefined;
    try {
      if (held.heldAt === undefined) {
        return result(
          'skip',
          `no ${kind.routeName} came to be held within ${(L.deliveryTimeoutMs + limit) / 1000} s`,
        );
      }
      during = await kind.publish(ctx);
      evidence.push(kind.publishedEvidence(during));
      // A held poll is in the traffic only once it ends: when the client gives up on it.
      stalled = await nextClientRequest(
        ctx,
        (event) => kind.isPoll(event) && wasCut(event) && event.at >= ruleAt,
        Math.max(0, held.heldAt + within - ctx.now()),
      );
    } finally {
      // Lets a poll still held go on (a client that never gave up gets its answer and recovers).
      await ctx.control.deleteFault(held.id).catch(() => undefined);
    }
    if (!stalled) {
      const late = await nextClientRequest(
        ctx,
        (event) => kind.isPoll(event) && event.at >= ruleAt && event.endedAt - event.at >= within,
        limit + L.deliveryTimeoutMs,
      );
      if (late) evidence.push(requestEvidence(late, 'the stalled poll, let go by certify'));
      return result(
        'fail',
        `never gave up on a poll left unanswered for ${within / 1000} s (two long-poll limits of ${limit} ms plus ` +
          `${STALL_MARGIN_MS / 1000} s): it has no request timeout`,
      );
    }
    const gaveUpAfter = stalled.endedAt - stalled.at;
    evidence.push(requestEvidence(stalled, `gave up after ${gaveUpAfter} ms without an answer`));
    const next = followerOf(clientRequests(ctx, stalled.at), stalled);
    const polledAgain =
      next ?? (await nextClientRequest(ctx, (e) => kind.isPoll(e) && e.at > stalled.at, within));
    const after = polledAgain && polledAgain.at - stalled.at;
    if (!polledAgain || after === undefined || after > within) {
      if (polledAgain)
        evidence.push(requestEvidence(polledAgain, `${after} ms after the stalled poll began`));
      return result(
        'fail',
        `gave up on the stalled poll after ${gaveUpAfter} ms but did not poll again within ${within / 1000} s of its start`,
      );
    }
    evidence.push(requestEvidence(polledAgain, `${after} ms after the stalled poll began`));
    if (kind.suite === 'events' && polledAgain.query['lastEventId'] !== stalled.query['lastEventId']) {
      return result(
        'fail',
        `polled again with lastEventId=${polledAgain.query['lastEventId'] ?? '(none)'} after giving up on a poll ` +
          `with lastEventId=${stalled.query['lastEventId'] ?? '(none)'}`,
      );
    }
    if (!(await kind.awaitDelivery(ctx, during, L.deliveryTimeoutMs))) {
      return result(
        'fail',
        `polled again but ${during.label}, published while its poll stalled, was not delivered`,
      );
    }
    const how = `gave up on the stalled poll after ${gaveUpAfter} ms and polled again ${after} ms after it began`;
    if (gaveUpAfter < limit - L.clockToleranceMs) {
      return result(
        'warn',
        `${how}: its timeout is shorter than the long-poll limit (${limit} ms), so it also cuts polls the server would still answer`,
      );
    }
    return result('pass', `${how} (limit ${within} ms), resuming where it was`);
  }
}
