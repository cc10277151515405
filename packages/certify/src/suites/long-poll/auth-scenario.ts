/**
 * auth-key-secret: the client's first poll carries a Bearer token it got by authenticating with
 * its key and secret. A client that polls with the simulator's published sample token is
 * refused this check, though its polls succeed: production has no such token.
 */
import type { CheckResult, Evidence, Scenario, ScenarioContext } from '../../types';
import { authKeySecret } from './check-info';
import { LONG_POLL_LIMITS as L } from './limits';
import type { LongPollKind } from './poll-kind';
import { checkResult, defineScenario } from './scenario-kit';
import { clientRequests, isAuthentication, nextClientRequest, requestEvidence } from './requests';

export function authScenario(kind: LongPollKind): Scenario {
  const info = authKeySecret(kind.suite);
  return defineScenario('authenticates', [info], async (ctx) => [await play(ctx)]);

  async function play(ctx: ScenarioContext): Promise<CheckResult> {
    // A message waiting makes the first poll end at once instead of after the hold time.
    const message = await kind.publish(ctx);
    const poll = await nextClientRequest(
      ctx,
      kind.isPoll,
      L.firstPollTimeoutMs + ctx.timings.longPollTimeoutMs,
    );
    const auths = clientRequests(ctx).filter(isAuthentication);
    const evidence: Evidence[] = [
      kind.publishedEvidence(message),
      ...auths.slice(0, 3).map((e) => requestEvidence(e)),
    ];
    if (!poll) {
      return checkResult(
        info,
        'fail',
        `made no ${kind.routeName} within ${L.firstPollTimeoutMs / 1000} s of starting`,
        evidence,
      );
    }
    evidence.push(requestEvidence(poll, 'its first poll'));
    const before = auths.filter((auth) => auth.at <= poll.at);
    const accepted = before.find((auth) => auth.status === 200);
    if (poll.auth !== 'bearer') {
      return checkResult(
        info,
        'fail',
        `its first poll sent ${poll.auth} authorization, not Bearer`,
        evidence,
      );
    }
    if (!accepted) {
      const summary =
        before.length === 0
          ? 'polled with a Bearer token without authenticating first (a fixed sample token is not a credential)'
          : `its authentication was refused (${before.map((auth) => auth.status).join(', ')})`;
      return checkResult(info, 'fail', summary, evidence);
    }
    if (poll.status === 401) {
      return checkResult(info, 'fail', 'its Bearer token was refused (401) on its first poll', evidence);
    }
    return checkResult(
      info,
      'pass',
      `authenticated (${accepted.method} ${accepted.path} -> 200) and polled with Authorization: Bearer`,
      evidence,
    );
  }
}
