import { round } from '../harness/stats';
import type { BenchReport, Comparison } from '../types';

/** A scenario both builds measured: each one's figure and ratio to its baseline, and their change. */
export interface BeforeAfterRow {
  readonly measure: string;
  readonly scenario: string;
  readonly unit: string;
  readonly before: number | null;
  readonly after: number | null;
  /** after / before: below 1 is less of the figure (better for times, worse for rates). */
  readonly change: number | null;
  readonly beforeRatio: number | null;
  readonly afterRatio: number | null;
  readonly ratioLabel: string;
}

export function beforeAfterRows(report: BenchReport): BeforeAfterRow[] {
  const rows: BeforeAfterRow[] = [];
  for (const after of report.measures) {
    const before = report.before?.measures.find((m) => m.id === after.id);
    for (const row of after.comparisons) {
      const old: Comparison | undefined = before?.comparisons.find((c) => c.scenario === row.scenario);
      const change = old?.ours && row.ours !== null ? round(row.ours / old.ours, 3) : null;
      rows.push({
        measure: after.title,
        scenario: row.scenario,
        unit: row.unit,
        before: old?.ours ?? null,
        after: row.ours,
        change,
        beforeRatio: old?.ratio ?? null,
        afterRatio: row.ratio,
        ratioLabel: row.ratioLabel,
      });
    }
  }
  return rows;
}
