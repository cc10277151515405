/**
 * recover-after-reset: a fault rule resets the TCP connection of the next poll (the client sees
 * its request fail mid-poll, as when a proxy or the network drops it); a message published after
 * that must still arrive, through a poll started within the limit.
 */
import type { CheckResult, Evidence, Scenario, ScenarioContext } from '../../types';
import { recoverAfterReset } from './check-info';
import { LONG_POLL_LIMITS as L } from './limits';
import type { LongPollKind } from './poll-kind';
import { checkResult, defineScenario, withFault } from './scenario-kit';
import {
  clientRequests,
  followerOf,
  nextClientRequest,
  noteEvidence,
  requestEvidence,
  wasCut,
} from './requests';

export function resetScenario(kind: LongPollKind): Scenario {
  const info = recoverAfterReset(kind.suite);
  return defineScenario('recovers from a reset connection', [info], async (ctx) => [await play(ctx)]);

  async function play(ctx: ScenarioContext): Promise<CheckResult> {
    const evidence: Evidence[] = [];
    const fail = (summary: string) => checkResult(info, 'fail', summary, evidence);
    const ruleAt = ctx.now();
    const rule = {
      match: { transport: kind.faultTransport },
      action: { type: 'disconnect', reset: true },
      times: 1,
    };
    const cut = await withFault(ctx, rule, async () => {
      evidence.push(noteEvidence(ruleAt, 'certify resets the connection of the next poll'));
      // Ends the poll in flight (let in before the rule), so the next one meets the reset.
      const wake = await kind.publish(ctx);
      evidence.push(kind.publishedEvidence(wake));
      const event = await nextClientRequest(
        ctx,
        (e) => kind.isPoll(e) && wasCut(e) && e.at >= ruleAt,
        L.deliveryTimeoutMs + L.repollWithinMs,
      );
      return event && { event, wake };
    });
    if (!cut) return checkResult(info, 'skip', `no ${kind.routeName} met the reset rule`, evidence);
    evidence.push(requestEvidence(cut.event, 'the connection reset'));
    const after = await kind.publish(ctx);
    evidence.push(kind.publishedEvidence(after));
    const delivered = await kind.awaitDelivery(ctx, after, L.recoverWithinMs + L.deliveryTimeoutMs);
    const requests = clientRequests(ctx, cut.event.at);
    const next = followerOf(requests, cut.event);
    if (!next)
      return fail(
        `made no request within ${(L.recoverWithinMs + L.deliveryTimeoutMs) / 1000} s of the reset`,
      );
    const gap = Math.max(0, next.at - cut.event.endedAt);
    evidence.push(requestEvidence(next, `${gap} ms after the reset`));
    if (gap > L.recoverWithinMs)
      return fail(`polled again only ${gap} ms after the reset (limit ${L.recoverWithinMs} ms)`);
    const firstPoll = requests.find((event) => kind.isPoll(event) && event.at >= next.at && !wasCut(event));
    const problem = firstPoll && kind.resumeProblem(firstPoll, clientRequests(ctx).filter(kind.isPoll));
    if (problem) return fail(`polled again but did not resume where it was: ${problem}`);
    if (!delivered) return fail(`polled again but ${after.label} was not delivered`);
    if (!(await kind.awaitDelivery(ctx, cut.wake, L.deliveryTimeoutMs)))
      return fail(`${cut.wake.label} was never delivered`);
    return checkResult(
      info,
      'pass',
      `polled again ${gap} ms after the reset and resumed with nothing skipped`,
      evidence,
    );
  }
}
