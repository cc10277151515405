import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAfterRows } from '../src/results/write-results';
import { REPO_ROOT, runBench } from '../src/run-bench';
import type { BenchReport } from '../src/types';

// --before ROOT against this checkout under another name: the before side then runs the
// simulators found through that path, and both sides must produce the same rows.
describe('bench --before ROOT', () => {
  let dir: string;
  let report: BenchReport;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'racedata-before-'));
    const other = path.join(dir, 'other-checkout');
    symlinkSync(REPO_ROOT, other);
    report = await runBench({
      quick: true,
      only: ['per-test-cost/sandboxes'],
      before: other,
      outDir: path.join(dir, 'out'),
      log: () => undefined,
    });
  }, 120_000);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('runs each measure against both builds and pairs their rows', () => {
    expect(report.before?.root).toBe(path.join(dir, 'other-checkout'));
    expect(report.before?.measures.map((m) => m.id)).toEqual(['per-test-cost']);
    const rows = beforeAfterRows(report);
    expect(rows.map((r) => r.scenario)).toEqual(report.measures[0]?.comparisons.map((c) => c.scenario));
    for (const row of rows) {
      expect(row.before).toBeGreaterThan(0);
      expect(row.after).toBeGreaterThan(0);
      expect(row.change).toBeCloseTo((row.after as number) / (row.before as number), 2);
    }
  });

  it('writes before-after.md with both figures of every scenario', () => {
    const markdown = readFileSync(path.join(dir, 'out', 'before-after.md'), 'utf8');
    expect(markdown).toContain('## Before and after');
    for (const row of beforeAfterRows(report))
      expect(markdown).toContain(`| Per-test costs | ${row.scenario} |`);
  });
});
