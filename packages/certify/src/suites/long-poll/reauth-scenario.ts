/**
 * reauth-after-401: once something was delivered, the user's tokens are expired; a message
 * published then ends the poll in flight (it was let in before the expiry), so the next one meets
 * the 401. The client must authenticate again and resume where it was.
 */
import type { CheckResult, Evidence, Scenario, ScenarioContext } from '../../types';
import { reauthAfter401 } from './check-info';
import { LONG_POLL_LIMITS as L } from './limits';
import type { LongPollKind } from './poll-kind';
import { checkResult, defineScenario } from './scenario-kit';
import {
  clientRequests,
  isAuthentication,
  nextClientRequest,
  noteEvidence,
  requestEvidence,
} from './requests';

export function reauthScenario(kind: LongPollKind): Scenario {
  const info = reauthAfter401(kind.suite);
  return defineScenario('authenticates again after a 401', [info], async (ctx) => [await play(ctx)]);

  async function play(ctx: ScenarioContext): Promise<CheckResult> {
    const evidence: Evidence[] = [];
    const fail = (summary: string) => checkResult(info, 'fail', summary, evidence);
    const first = await kind.publish(ctx);
    evidence.push(kind.publishedEvidence(first));
    if (!(await kind.awaitDelivery(ctx, first, L.deliveryTimeoutMs))) {
      return fail(
        `${first.label} was not delivered within ${L.deliveryTimeoutMs / 1000} s, before any expiry`,
      );
    }
    const expiredAt = ctx.now();
    await ctx.control.expireTokens();
    evidence.push(noteEvidence(expiredAt, "certify expired the user's tokens (POST /_sim/tokens/expire)"));
    const wake = await kind.publish(ctx);
    evidence.push(kind.publishedEvidence(wake));
    const refused = await nextClientRequest(
      ctx,
      (event) => kind.isPoll(event) && event.status === 401 && event.at >= expiredAt,
      L.deliveryTimeoutMs + L.repollWithinMs,
    );
    if (!refused) {
      const after = clientRequests(ctx, expiredAt).filter(kind.isPoll);
      evidence.push(...after.slice(0, 3).map((event) => requestEvidence(event)));
      if (after.length === 0) return fail(`made no ${kind.routeName} after its token was expired`);
      return checkResult(
        info,
        'skip',
        'no poll met a 401 after the expiry, so re-authentication was not needed',
        evidence,
      );
    }
    evidence.push(requestEvidence(refused, 'the expired token refused'));
    // Only an authentication begun after the refused poll began can answer it: a quick client's
    // first one, made at its start, may end within the clock tolerance of that 401.
    const answeredFrom = Math.max(refused.at, refused.endedAt - L.clockToleranceMs);
    const auth = await nextClientRequest(
      ctx,
      (event) => isAuthentication(event) && event.status === 200 && event.at >= answeredFrom,
      L.reauthWithinMs,
    );
    if (!auth) {
      const retries = clientRequests(ctx, refused.endedAt).filter((e) => kind.isPoll(e) && e.status === 401);
      evidence.push(...retries.slice(0, 3).map((event) => requestEvidence(event)));
      const more = retries.length > 0 ? `; ${retries.length} more poll(s) answered 401` : '';
      return fail(`did not authenticate again within ${L.reauthWithinMs / 1000} s of the 401${more}`);
    }
    const reauthMs = Math.max(0, auth.at - refused.endedAt);
    evidence.push(requestEvidence(auth, `authenticated again ${reauthMs} ms after the 401`));
    // Something new to deliver ends the resumed poll at once, and shows nothing was skipped.
    const resumeWith = await kind.publish(ctx);
    evidence.push(kind.publishedEvidence(resumeWith));
    const resumed = await nextClientRequest(
      ctx,
      (event) => kind.isPoll(event) && event.status !== 401 && event.at >= auth.at,
      L.reauthWithinMs,
    );
    if (!resumed)
      return fail(
        `authenticated again but made no accepted ${kind.routeName} within ${L.reauthWithinMs / 1000} s`,
      );
    evidence.push(requestEvidence(resumed, 'the first poll after authenticating again'));
    const problem = kind.resumeProblem(resumed, clientRequests(ctx).filter(kind.isPoll));
    if (problem) return fail(`authenticated again but did not resume where it was: ${problem}`);
    for (const message of [wake, resumeWith]) {
      if (!(await kind.awaitDelivery(ctx, message, L.deliveryTimeoutMs))) {
        return fail(
          `authenticated again but ${message.label} was not delivered within ${L.deliveryTimeoutMs / 1000} s`,
        );
      }
    }
    const where =
      resumed.query['lastEventId'] === undefined ? '' : ` from lastEventId=${resumed.query['lastEventId']}`;
    return checkResult(
      info,
      'pass',
      `authenticated again ${reauthMs} ms after the 401 and resumed${where}`,
      evidence,
    );
  }
}
