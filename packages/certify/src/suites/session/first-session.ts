import type { CheckInfo, CheckResult, ScenarioContext } from '../../types';
import { authentications, succeeded } from './auth';
import { evidenceOf, secs, verdict } from './evidence';
import type { SessionOpen } from './sessions';

/** How long a starting client has to open its first session (a node process starts slowly on shared cores). */
export const FIRST_SESSION_MS = 15_000;

/**
 * `auth-key-secret` of a session suite: the client asked for its token with its key and secret
 * before it opened its first session (`session` names that session in the summary).
 */
export function gradeFirstAuthentication(
  ctx: ScenarioContext,
  info: CheckInfo,
  open: SessionOpen | undefined,
  session: string,
): CheckResult {
  const tried = authentications(ctx, 0, open?.at ?? ctx.now());
  const ok = succeeded(tried);
  const evidence = [...tried.map(evidenceOf), ...(open ? [evidenceOf(open)] : [])];
  if (open && ok[0]) {
    const after = secs(open.at - ok[0].at);
    return verdict(
      info,
      'pass',
      `authenticated with its key and secret, then opened ${session} ${after} later`,
      evidence,
    );
  }
  if (open) {
    const why = 'no successful POST /customerapi/authenticate/subscription';
    return verdict(info, 'fail', `opened ${session} with a token it never asked for: ${why}`, evidence);
  }
  if (ok.length > 0) {
    return verdict(
      info,
      'fail',
      `authenticated, but opened no ${session} within ${secs(FIRST_SESSION_MS)}`,
      evidence,
    );
  }
  const statuses = tried.map((e) => e.status).join(', ');
  const summary =
    tried.length > 0
      ? `authentication never succeeded (answered ${statuses})`
      : `never authenticated within ${secs(FIRST_SESSION_MS)}`;
  return verdict(info, 'fail', summary, evidence);
}
