/** Building results, and the guard every long-poll scenario runs in. */
import type { CheckInfo, CheckResult, CheckStatus, Evidence, Scenario, ScenarioContext } from '../../types';

export function checkResult(
  info: CheckInfo,
  status: CheckStatus,
  summary: string,
  evidence: readonly Evidence[] = [],
): CheckResult {
  return { id: info.id, status, required: info.required, summary, evidence };
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * A scenario whose failures are reported, never thrown: a control call that fails fails the
 * scenario's checks with its message, and a check left undecided because the run was stopped is
 * a skip saying so, not a verdict on the client.
 */
export function defineScenario(
  name: string,
  checks: readonly CheckInfo[],
  play: (ctx: ScenarioContext) => Promise<readonly CheckResult[]>,
): Scenario {
  return {
    name,
    checks,
    async run(ctx) {
      let results: readonly CheckResult[];
      try {
        results = await play(ctx);
      } catch (err) {
        if (ctx.signal.aborted) return checks.map((info) => stopped(info));
        return checks.map((info) =>
          checkResult(info, 'fail', `certify could not play "${name}": ${errorText(err)}`),
        );
      }
      if (!ctx.signal.aborted) return results;
      return results.map((result) =>
        result.status === 'fail' ? { ...stopped(result), evidence: result.evidence } : result,
      );
    },
  };
}

function stopped(info: Pick<CheckInfo, 'id' | 'required'>): CheckResult {
  return {
    id: info.id,
    status: 'skip',
    required: info.required,
    summary: 'the run was stopped before this check was decided',
    evidence: [],
  };
}

/** Removes a fault rule whatever happened, so one scenario's fault never leaks into the next. */
export async function withFault<T>(
  ctx: ScenarioContext,
  rule: Record<string, unknown>,
  body: (id: string) => Promise<T>,
): Promise<T> {
  const id = await ctx.control.addFault(rule);
  try {
    return await body(id);
  } finally {
    // A rule used up by its `times` is already gone (404): that is the end it was meant to have.
    await ctx.control.deleteFault(id).catch(() => undefined);
  }
}
