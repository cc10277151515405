import type { machineInfo } from './machine';

/** PASS/MISS against a target; INFO for figures without a target; N/A when not measured. */
export type Verdict = 'PASS' | 'MISS' | 'INFO' | 'N/A';

/** One verdict of the soak or the abuse run: what was measured against its target. */
export interface Check {
  readonly name: string;
  readonly target: string;
  readonly value: string;
  readonly pass: boolean;
}

export const check = (name: string, target: string, value: string, pass: boolean): Check => ({
  name,
  target,
  value,
  pass,
});

export interface Figure {
  readonly name: string;
  readonly value: number | null;
  /** Why the figure is missing or how it was obtained, when that matters. */
  readonly note?: string;
}

/** One row of a measure's table: our figure against each baseline's, measured in the same run. */
export interface Comparison {
  readonly scenario: string;
  readonly unit: string;
  readonly ours: number | null;
  readonly baselines: readonly Figure[];
  /** Our figure relative to the bare baseline, in the direction `ratioLabel` says. */
  readonly ratio: number | null;
  readonly ratioLabel: string;
  /** Lowest and highest of the per-round ratios when the ratio is a median of paired rounds. */
  readonly ratioSpread?: readonly [number, number];
  readonly target: string;
  readonly verdict: Verdict;
  readonly note?: string;
}

export interface ProfileEntry {
  readonly functionName: string;
  readonly location: string;
  readonly selfMs: number;
  readonly selfPercent: number;
}

export interface ProfileArea {
  readonly area: string;
  readonly selfPercent: number;
}

export interface ProfileSummary {
  readonly subject: string;
  readonly file: string;
  readonly totalMs: number;
  readonly top: readonly ProfileEntry[];
  /** Self time grouped by where the code lives: our packages, each dependency, Node internals, GC. */
  readonly byArea: readonly ProfileArea[];
  /** Replaces the standard heading line (a difference of two profiles says what it is). */
  readonly heading?: string;
}

export interface MeasureResult {
  readonly id: string;
  readonly title: string;
  readonly method: readonly string[];
  readonly comparisons: readonly Comparison[];
  readonly notes: readonly string[];
  readonly profiles: readonly ProfileSummary[];
  readonly durationMs: number;
}

/** What a measure itself returns; the runner adds its id, title and duration. */
export type MeasureBody = Omit<MeasureResult, 'id' | 'title' | 'durationMs'>;

export type MachineInfo = ReturnType<typeof machineInfo>;

export interface BenchReport {
  readonly mode: 'full' | 'quick';
  /** The measures asked for with --only (a partial run); absent when all ran. */
  readonly only?: readonly string[];
  readonly machine: MachineInfo;
  readonly simulatorBuild: string;
  readonly peers: string;
  readonly measures: readonly MeasureResult[];
  /** With --before ROOT: the same measures against the simulators of that checkout. */
  readonly before?: { readonly root: string; readonly measures: readonly MeasureResult[] };
  readonly durationMs: number;
}
