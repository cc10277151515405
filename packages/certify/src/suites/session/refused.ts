import type { CheckInfo, CheckResult, ScenarioContext } from '../../types';
import { evidenceOf, note, secs, verdict } from './evidence';
import { mostInWindow } from './rate';
import { CERTIFY_CLOSE_CODE } from './reclose';
import { awaitOpen, nextOpen, type SessionTransport } from './sessions';
import { upgradesTo } from './upgrades';

/** How long upgrades are refused: long enough for several back-off steps, short enough for the suite. */
export const REFUSED_FOR_MS = 4_000;
/** The rule: at most this many attempts in any second. */
export const ATTEMPTS_PER_SECOND = 2;
/**
 * One attempt over the rule is tolerated in any one-second window: a client retrying every
 * 500 ms lands three attempts in a closed second when a timer fires a few ms early or late on
 * two shared cores; a hot loop makes tens.
 */
export const JITTER_ALLOWANCE = 1;
/** After the refusal ends, how long the client has to be back before the next scenario. */
export const RECOVER_WITHIN_MS = 10_000;

export interface Refusal {
  /** The fault target of the session transport (`event-stream`, `stomp`). */
  readonly transport: SessionTransport;
  readonly paths: readonly string[];
}

/**
 * Refuses every upgrade with 503 (a fault rule), closes the client's session and counts its
 * attempts while refused; then lifts the rule and waits for the client to come back.
 */
export async function gradeRefusal(
  ctx: ScenarioContext,
  info: CheckInfo,
  refusal: Refusal,
): Promise<CheckResult> {
  const open = await awaitOpen(ctx, refusal.transport, 10_000);
  if (!open) return verdict(info, 'skip', 'no open session to start from (see reconnect-after-close)');
  let ruleId: string;
  try {
    ruleId = await ctx.control.addFault({
      match: { transport: refusal.transport },
      action: { type: 'status', status: 503, retryAfter: 1 },
    });
  } catch (err) {
    return verdict(info, 'skip', `could not add the fault rule: ${String(err)}`);
  }
  const start = ctx.now();
  let result: CheckResult;
  try {
    await ctx.control.closeConnections(CERTIFY_CLOSE_CODE);
    await ctx.wait(REFUSED_FOR_MS);
    result = grade(ctx, info, refusal, start);
  } catch (err) {
    result = verdict(info, 'skip', `could not close the session: ${String(err)}`);
  } finally {
    await ctx.control.deleteFault(ruleId).catch(() => undefined);
  }
  // Not graded: the next scenario needs the client back, and says so if it is not.
  await nextOpen(ctx, refusal.transport, Math.max(start, open.at + 1), RECOVER_WITHIN_MS);
  return result;
}

function grade(ctx: ScenarioContext, info: CheckInfo, refusal: Refusal, start: number): CheckResult {
  const end = start + REFUSED_FOR_MS;
  const attempts = upgradesTo(ctx, refusal.paths, start).filter((e) => e.at <= end);
  const evidence = [
    note(
      start,
      `certify refused upgrades with 503 (Retry-After: 1) and closed the session for ${secs(REFUSED_FOR_MS)}`,
    ),
    ...attempts.map(evidenceOf),
  ];
  if (ctx.signal.aborted)
    return verdict(info, 'skip', 'the run was stopped while upgrades were refused', evidence);
  if (attempts.length === 0) {
    return verdict(
      info,
      'skip',
      `made no connection attempt in ${secs(REFUSED_FOR_MS)} while refused (see reconnect-after-close)`,
      evidence,
    );
  }
  const most = mostInWindow(
    attempts.map((e) => e.at),
    1000,
  );
  const limit = ATTEMPTS_PER_SECOND + JITTER_ALLOWANCE;
  const counted = `${attempts.length} attempt(s) in ${secs(REFUSED_FOR_MS)} while refused, at most ${most} in any second`;
  if (most > limit) {
    return verdict(
      info,
      'fail',
      `${counted} (limit ${ATTEMPTS_PER_SECOND} a second, ${limit} with jitter allowance)`,
      evidence,
    );
  }
  return verdict(
    info,
    'pass',
    `${counted} (limit ${ATTEMPTS_PER_SECOND}, ${limit} with jitter allowance)`,
    evidence,
  );
}
