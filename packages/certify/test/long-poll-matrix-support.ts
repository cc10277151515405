import path from 'node:path';
import { certify } from '../src/run/runner';
import type { CheckResult, Report } from '../src/types';

const examples = path.resolve(__dirname, '..', '..', '..', 'examples', 'certify');

/** Runs a reference client from examples/certify/ as its own process through the real runner. */
export function certifyExample(
  suite: 'events' | 'listen',
  script: string,
  only?: readonly string[],
): Promise<Report> {
  return certify({
    suite,
    client: { command: process.execPath, args: [path.join(examples, script)], env: {} },
    ...(only && { only }),
    timeoutMs: 60_000,
  });
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
 * Runs a broken variant with --only the check it breaks and asserts it fails exactly that check,
 * for the reason it breaks it, with evidence.
 */
export async function expectFailsFor(
  suite: 'events' | 'listen',
  script: string,
  id: string,
  reason: RegExp,
): Promise<void> {
  const report = await certifyExample(suite, `broken/${script}`, [id]);
  expect(verdicts(report)).toEqual({ [id]: 'fail' });
  const result = check(report, id);
  expect({ summary: result.summary, story: explain(result) }).toEqual({
    summary: expect.stringMatching(reason),
    story: expect.any(String),
  });
  expect(result.evidence.length).toBeGreaterThan(0);
  expect(report.failed).toBe(1);
}
