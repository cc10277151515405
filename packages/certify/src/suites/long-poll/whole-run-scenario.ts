/**
 * The last scenario: one more delivery and one more hold time (a 204 and the poll after it), then
 * the checks that hold over the whole run: no-hot-loop, and whatever the suite adds (events:
 * follows-last-event-id). It plays its own traffic, so it decides its checks run alone (--only).
 */
import type { CheckInfo, CheckResult, Evidence, Scenario, ScenarioContext } from '../../types';
import { noHotLoop } from './check-info';
import { LONG_POLL_LIMITS as L } from './limits';
import type { LongPollKind } from './poll-kind';
import { busiestSecond } from './rate';
import { checkResult, defineScenario } from './scenario-kit';
import { idleRound } from './repoll';
import { clientRequests, requestEvidence, type RequestEvent } from './requests';

/** A check graded over every client request of the run. */
export interface WholeRunCheck {
  readonly info: CheckInfo;
  grade(requests: readonly RequestEvent[], played: readonly Evidence[]): CheckResult;
}

export function wholeRunScenario(kind: LongPollKind, extra: readonly WholeRunCheck[] = []): Scenario {
  const hotLoop = noHotLoop(kind.suite);
  return defineScenario('over the whole run', [...extra.map((check) => check.info), hotLoop], play);

  async function play(ctx: ScenarioContext): Promise<CheckResult[]> {
    const played: Evidence[] = [];
    const message = await kind.publish(ctx);
    played.push(kind.publishedEvidence(message));
    const answer = await kind.awaitDelivery(ctx, message, L.deliveryTimeoutMs);
    if (answer) await idleRound(kind, ctx, answer, played);
    const requests = clientRequests(ctx);
    return [...extra.map((check) => check.grade(requests, played)), gradeHotLoop(requests)];
  }

  function gradeHotLoop(requests: readonly RequestEvent[]): CheckResult {
    if (requests.length === 0) return checkResult(hotLoop, 'skip', 'the client made no requests');
    const busiest = busiestSecond(requests);
    const evidence = [busiest.requests[0], busiest.requests[busiest.requests.length - 1]]
      .filter((event): event is RequestEvent => event !== undefined)
      .map((event, i) => requestEvidence(event, i === 0 ? 'the busiest second begins' : 'and ends'));
    if (busiest.count > L.hotLoopMaxPerSecond) {
      return checkResult(
        hotLoop,
        'fail',
        `sent ${busiest.count} requests within one second (limit ${L.hotLoopMaxPerSecond})`,
        evidence,
      );
    }
    return checkResult(
      hotLoop,
      'pass',
      `at most ${busiest.count} requests in any second over ${requests.length} requests`,
      evidence,
    );
  }
}
