/**
 * backoff-on-5xx: a fault rule answers the next polls 503 with Retry-After; a message published
 * during that run must arrive once it is over. A message published first ends the poll in flight
 * (let in before the rule), so the run starts at once.
 */
import type { CheckResult, Evidence, Scenario, ScenarioContext } from '../../types';
import { backoffOn5xx } from './check-info';
import { LONG_POLL_LIMITS as L } from './limits';
import type { LongPollKind } from './poll-kind';
import { busiestSecond } from './rate';
import { checkResult, defineScenario, withFault } from './scenario-kit';
import { clientRequests, followerOf, nextClientRequest, noteEvidence, requestEvidence } from './requests';

const RETRY_AFTER_MS = L.retryAfterSeconds * 1000;

export function backoffScenario(kind: LongPollKind): Scenario {
  const info = backoffOn5xx(kind.suite);
  return defineScenario('backs off on 503', [info], async (ctx) => [await play(ctx)]);

  async function play(ctx: ScenarioContext): Promise<CheckResult> {
    const evidence: Evidence[] = [];
    const fail = (summary: string) => checkResult(info, 'fail', summary, evidence);
    const rule = {
      match: { transport: kind.faultTransport },
      action: { type: 'status', status: 503, retryAfter: L.retryAfterSeconds },
      times: L.backoffRun,
    };
    const ruleAt = ctx.now();
    const outcome = await withFault(ctx, rule, async () => {
      evidence.push(
        noteEvidence(
          ruleAt,
          `certify answers the next ${L.backoffRun} polls 503 with Retry-After: ${L.retryAfterSeconds}`,
        ),
      );
      const wake = await kind.publish(ctx);
      evidence.push(kind.publishedEvidence(wake));
      const first503 = await nextClientRequest(
        ctx,
        (event) => kind.isPoll(event) && event.status === 503 && event.at >= ruleAt,
        L.deliveryTimeoutMs + L.repollWithinMs,
      );
      if (!first503) return undefined;
      const during = await kind.publish(ctx);
      evidence.push(kind.publishedEvidence(during));
      const runMs = L.backoffRun * RETRY_AFTER_MS;
      const delivered = await kind.awaitDelivery(ctx, during, runMs + L.deliveryTimeoutMs);
      return { first503, during, delivered, wake };
    });
    if (!outcome) return checkResult(info, 'skip', `no ${kind.routeName} met the 503 rule`, evidence);
    const requests = clientRequests(ctx, outcome.first503.at);
    const refused = requests.filter((event) => kind.isPoll(event) && event.status === 503);
    evidence.push(...refused.map((event) => requestEvidence(event)));

    for (const answer of refused) {
      const next = followerOf(requests, answer);
      // Measured from when the 503's request arrived: the client cannot have read the answer
      // before that, so a stalled certify process can only make the wait look longer, never shorter.
      const waited = next && next.at - answer.at;
      if (next && waited !== undefined && waited < RETRY_AFTER_MS - L.clockToleranceMs) {
        evidence.push(requestEvidence(next, `${waited} ms after a 503`));
        return fail(`asked again ${waited} ms after a 503 with Retry-After: ${L.retryAfterSeconds}`);
      }
    }
    const resumed = outcome.delivered;
    const window = requests.filter((event) => !resumed || event.at <= resumed.at);
    const busiest = busiestSecond(window);
    if (busiest.count > L.backoffMaxPerSecond) {
      evidence.push(...busiest.requests.slice(0, 3).map((event) => requestEvidence(event)));
      return fail(
        `sent ${busiest.count} requests within one second during the 503 run (limit ${L.backoffMaxPerSecond})`,
      );
    }
    if (!resumed) {
      return fail(
        `${outcome.during.label} was not delivered after the 503 run (waited ${L.backoffRun * L.retryAfterSeconds + L.deliveryTimeoutMs / 1000} s)`,
      );
    }
    evidence.push(requestEvidence(resumed, 'resumed'));
    const problem = kind.resumeProblem(resumed, clientRequests(ctx).filter(kind.isPoll));
    if (problem) return fail(`did not resume where it was after the 503 run: ${problem}`);
    if (!(await kind.awaitDelivery(ctx, outcome.wake, L.deliveryTimeoutMs))) {
      return fail(`${outcome.wake.label} was never delivered`);
    }
    return checkResult(
      info,
      'pass',
      `waited at least Retry-After after each of ${refused.length} 503 answers ` +
        `(busiest second: ${busiest.count} requests) and resumed with nothing skipped`,
      evidence,
    );
  }
}
