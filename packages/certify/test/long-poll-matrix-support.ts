import path from 'node:path';
import { certify } from '../src/run/runner';
import type { CheckResult, Report } from '../src/types';

const examples = path.resolve(__dirname, '..', '..', '..', 'examples', 'certify');

/**
 * Runs a reference client from examples/certify/ as its own process through the real runner,
 * with --echo stdout (both long-poll clients print what they processed).
 */
export function certifyExample(
  suite: 'events' | 'listen',
  script: string,
  only?: readonly string[],
): Promise<Report> {
  return certify({
    suite,
    client: { command: process.execPath, args: [path.join(examples, script)], env: {} },
    ...(only && { only }),
    echo: true,
    timeoutMs: 80_000,
  });
}

/** A broken variant, the check it breaks and why, as its report must say. */
export type BrokenCase = readonly [script: string, id: string, reason: RegExp];

/**
 * The good client and every broken variant (each with --only the check it breaks), all at once:
 * each run waits on timers far more than it computes, so side by side they take the time of the
 * longest, not of them all.
 */
export async function certifyMatrix(
  suite: 'events' | 'listen',
  good: string,
  broken: readonly BrokenCase[],
): Promise<{ good: Report; broken: Map<string, Report> }> {
  const runs = await Promise.all([
    certifyExample(suite, good),
    ...broken.map(([script, id]) => certifyExample(suite, `broken/${script}`, [id])),
  ]);
  const [goodReport, ...brokenReports] = runs;
  return {
    good: goodReport as Report,
    broken: new Map(broken.map(([script], i) => [script, brokenReports[i] as Report])),
  };
}

/** The report's verdicts as `id: status`, which a failing assertion prints in full. */
export function verdicts(report: Report): Record<string, string> {
  return Object.fromEntries(report.checks.map((check) => [check.id, check.status]));
}

export function check(report: Report, id: string): CheckResult {
  const found = report.checks.find((c) => c.id === id);
  if (!found) throw new Error(`no check ${id} in ${JSON.stringify(verdicts(report))}`);
  return found;
}

/** A check's whole story, for a failing assertion's message. */
export function explain(result: CheckResult): string {
  return [
    `${result.id} ${result.status}: ${result.summary}`,
    ...result.evidence.map((e) => `  ${e.at} ${e.what}`),
  ].join('\n');
}

/**
 * Asserts a broken variant's report (run with --only the check it breaks) fails exactly that
 * check, for the reason it breaks it, with evidence.
 */
export function expectFailsFor(report: Report, id: string, reason: RegExp): void {
  // One assertion, so a failure prints the verdicts, the summary and the evidence together.
  const result = report.checks.find((c) => c.id === id);
  expect({ verdicts: verdicts(report), summary: result?.summary, story: result && explain(result) }).toEqual({
    verdicts: { [id]: 'fail' },
    summary: expect.stringMatching(reason),
    story: expect.any(String),
  });
  if (!result) return;
  expect(result.evidence.length).toBeGreaterThan(0);
  expect(report.failed).toBe(1);
}
