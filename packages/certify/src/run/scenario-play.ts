import type { CheckInfo, CheckResult, CheckStatus, Evidence, Scenario, ScenarioContext } from '../types';

/** Why a check got no verdict of its own: the run ended before it, or its scenario broke. */
export interface NotGraded {
  readonly status: CheckStatus;
  readonly summary: string;
  readonly evidence: readonly Evidence[];
}

/**
 * Plays one scenario and returns a result for each of its checks that `keep` names, in the
 * order the scenario lists them. A scenario that throws, leaves a check out, or is still running
 * when the run is stopped never turns into a pass: the check fails (a certify error) or is not
 * graded, and its summary says which.
 */
export async function playScenario(
  scenario: Scenario,
  ctx: ScenarioContext,
  keep: (check: CheckInfo) => boolean,
  stopped: () => NotGraded | undefined,
): Promise<CheckResult[]> {
  const checks = scenario.checks.filter(keep);
  let results: readonly CheckResult[];
  try {
    results = await untilAborted(scenario.run(ctx), ctx.signal);
  } catch (err) {
    const reason = stopped();
    if (reason) return checks.map((check) => notGraded(check, reason));
    const detail = err instanceof Error ? err.message : String(err);
    return checks.map((check) =>
      verdict(
        check,
        'fail',
        `certify could not grade this (scenario "${scenario.name}" failed: ${detail})`,
        [],
      ),
    );
  }
  const reason = stopped();
  if (reason) return checks.map((check) => notGraded(check, reason));
  return checks.map((check) => {
    const result = results.find((r) => r.id === check.id);
    if (!result)
      return verdict(check, 'skip', `not decided: scenario "${scenario.name}" gave no verdict`, []);
    return { ...result, id: check.id, required: check.required, evidence: capEvidence(result.evidence) };
  });
}

/** Evidence kept per check: a hot-looping client's ten thousand requests would bury the report. */
export const EVIDENCE_MAX = 60;

/** The first and last of a long evidence list, with a line saying how many were left out between. */
export function capEvidence(evidence: readonly Evidence[], max = EVIDENCE_MAX): Evidence[] {
  if (evidence.length <= max) return [...evidence];
  const head = evidence.slice(0, max - 10);
  const tail = evidence.slice(-9);
  const gap = {
    at: tail[0]?.at ?? '',
    what: `... ${evidence.length - head.length - tail.length} more left out`,
  };
  return [...head, gap, ...tail];
}

export function notGraded(check: CheckInfo, reason: NotGraded): CheckResult {
  return verdict(
    check,
    reason.status === 'fail' && !check.required ? 'skip' : reason.status,
    reason.summary,
    [...reason.evidence],
  );
}

function verdict(check: CheckInfo, status: CheckStatus, summary: string, evidence: Evidence[]): CheckResult {
  return { id: check.id, status, required: check.required, summary, evidence };
}

/** Resolves with the scenario, or rejects as soon as the run is stopped (a scenario may not listen). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new Error('stopped'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Error('stopped'));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}
