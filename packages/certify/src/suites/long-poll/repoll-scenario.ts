/**
 * repoll-after-200 and repoll-after-204: two messages, each published once the one before was
 * delivered, then a hold time with nothing (a 204), then one more message so the poll after the
 * 204 ends at once and shows when it started.
 */
import type { CheckResult, Evidence, Scenario, ScenarioContext } from '../../types';
import { repollAfter200, repollAfter204 } from './check-info';
import { LONG_POLL_LIMITS as L } from './limits';
import type { LongPollKind } from './poll-kind';
import { gapsAfter, gradeGaps, idleRound } from './repoll';
import { checkResult, defineScenario } from './scenario-kit';
import { clientRequests } from './requests';

export function repollScenario(kind: LongPollKind): Scenario {
  const after200 = repollAfter200(kind.suite);
  const after204 = repollAfter204(kind.suite);
  return defineScenario('polls again at once', [after200, after204], play);

  async function play(ctx: ScenarioContext): Promise<CheckResult[]> {
    const evidence: Evidence[] = [];
    const delivered = [];
    for (let i = 0; i < 2; i++) {
      const message = await kind.publish(ctx);
      evidence.push(kind.publishedEvidence(message));
      const answer = await kind.awaitDelivery(ctx, message, L.deliveryTimeoutMs);
      if (!answer) {
        const summary = `${message.label} was not delivered within ${L.deliveryTimeoutMs / 1000} s`;
        return [
          checkResult(after200, 'fail', summary, evidence),
          checkResult(after204, 'skip', summary, evidence),
        ];
      }
      delivered.push(answer);
    }
    const last = delivered[delivered.length - 1]!;
    const noContent = await idleRound(kind, ctx, last, evidence);
    const requests = clientRequests(ctx);
    return [
      gradeGaps(
        after200,
        gapsAfter(delivered, requests),
        'a 200',
        'no message was delivered',
        undefined,
        evidence,
      ),
      gradeGaps(
        after204,
        noContent ? gapsAfter([noContent], requests) : [],
        'a 204',
        `no poll ended 204 within the hold time (${ctx.timings.longPollTimeoutMs} ms) after a delivery`,
      ),
    ];
  }
}
