import type { CheckResult, Evidence, Report, Suite } from '../types';

export interface ReportInput {
  readonly suite: Suite | 'all';
  readonly command: string;
  /** ms since the epoch. */
  readonly startedAt: number;
  readonly durationMs: number;
  readonly checks: readonly CheckResult[];
  readonly aborted?: string;
  readonly foreign?: { readonly count: number; readonly sample: readonly Evidence[] };
}

/** The report: `failed` counts required checks that failed and were not expected to. */
export function buildReport(input: ReportInput): Report {
  return {
    suite: input.suite,
    command: input.command,
    startedAt: new Date(input.startedAt).toISOString(),
    durationMs: Math.round(input.durationMs),
    checks: input.checks,
    passed: input.checks.filter((c) => c.status === 'pass').length,
    failed: input.checks.filter(countsAsFailure).length,
    ...(input.aborted !== undefined && { aborted: input.aborted }),
    ...(input.foreign !== undefined && { foreign: input.foreign }),
  };
}

export function countsAsFailure(check: CheckResult): boolean {
  return check.status === 'fail' && check.required && check.expectedFailure !== true;
}

/**
 * 0 when no required check failed (expected failures aside), 1 when one did or the run ended
 * early (the client exited, made no request, or the run timed out): a client that did not run to
 * the end is never certified, even when no check was left to fail.
 */
export function exitCodeOf(report: Report): 0 | 1 {
  return report.failed > 0 || report.aborted !== undefined ? 1 : 0;
}
