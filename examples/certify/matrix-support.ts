import path from 'node:path';
import { certify, type CertifyReport as Report } from 'racedata-sim';

/** A broken variant, the check it breaks and why, as its report must say. */
export type BrokenCase = readonly [script: string, id: string, reason: RegExp];

/** Runs a client of this folder as its own process through the test kit's certify(), as a user's CI would. */
export function certifyClient(
  suite: 'stream' | 'stomp',
  file: string,
  only?: readonly string[],
): Promise<Report> {
  return certify({
    suite,
    command: process.execPath,
    args: [path.join(__dirname, file)],
    echo: true,
    ...(only && { only }),
    timeoutMs: 90_000,
  });
}

/**
 * The good client and every broken variant (each with --only the check it breaks), all at once:
 * each run waits on timers far more than it computes, so side by side they take the time of the
 * longest, not of them all.
 */
export async function certifyMatrix(
  suite: 'stream' | 'stomp',
  good: string,
  broken: readonly BrokenCase[],
): Promise<{ good: Report; broken: Map<string, Report> }> {
  const [goodReport, ...brokenReports] = await Promise.all([
    certifyClient(suite, good),
    ...broken.map(([script, id]) => certifyClient(suite, `broken/${script}`, [id])),
  ]);
  return {
    good: goodReport as Report,
    broken: new Map(broken.map(([script], i) => [script, brokenReports[i] as Report])),
  };
}

/** The report's verdicts as `id: status`, which a failing assertion prints in full. */
export function verdicts(report: Report): Record<string, string> {
  return Object.fromEntries(report.checks.map((check) => [check.id, check.status]));
}

/** Every check passed, each with a summary its pattern matches: one assertion, printed whole when it fails. */
export function expectPassesAll(report: Report, checks: ReadonlyArray<readonly [string, RegExp]>): void {
  const summaries = Object.fromEntries(report.checks.map((check) => [check.id, check.summary]));
  expect({ verdicts: verdicts(report), summaries, aborted: report.aborted }).toEqual({
    verdicts: Object.fromEntries(checks.map(([id]) => [id, 'pass'])),
    summaries: Object.fromEntries(checks.map(([id, reason]) => [id, expect.stringMatching(reason)])),
    aborted: undefined,
  });
  expect(report).toMatchObject({ passed: checks.length, failed: 0 });
}

/** A broken variant (run with --only the check it breaks) fails exactly that check, for its reason. */
export function expectFailsFor(report: Report, id: string, reason: RegExp): void {
  const result = report.checks.find((c) => c.id === id);
  expect({ verdicts: verdicts(report), summary: result?.summary }).toEqual({
    verdicts: { [id]: 'fail' },
    summary: expect.stringMatching(reason),
  });
  expect(result?.evidence.length).toBeGreaterThan(0);
  expect(report.failed).toBe(1);
}
