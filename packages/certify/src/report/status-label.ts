import type { CheckResult } from '../types';

/** The status as reports show it: an expected failure and an optional check's failure say so. */
export function statusLabel(check: CheckResult): string {
  if (check.status === 'fail' && check.expectedFailure === true) return 'fail (expected)';
  if (check.status === 'fail' && !check.required) return 'fail (optional)';
  return check.status;
}

/** The suite a check of an `all` report belongs to (`events/auth-key-secret`), or the run's. */
export function suiteOf(check: CheckResult, runSuite: string): string {
  const slash = check.id.indexOf('/');
  return slash < 0 ? runSuite : check.id.slice(0, slash);
}
