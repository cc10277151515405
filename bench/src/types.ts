import type { BenchConfig } from './config';
import type { PeerTools } from './harness/peers';
import type { summariseProfile } from './harness/profile';
import type { machineInfo } from './results/write-results';
import type { runMeasure } from './run-bench';

/** PASS/MISS against a target; INFO for figures without a target; N/A when not measured. */
export type Verdict = 'PASS' | 'MISS' | 'INFO' | 'N/A';

/** One verdict of the soak or the abuse run: what was measured against its target. */
export function check(name: string, target: string, value: string, pass: boolean) {
  return { name, target, value, pass };
}
export type Check = ReturnType<typeof check>;

/** A baseline's figure; the note says why it is missing or how it was obtained, when that matters. */
export type Figure = { readonly name: string; readonly value: number | null; readonly note?: string };

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

/** Where a profiled simulator spent its CPU: the largest self times, and self time by area. */
export type ProfileSummary = ReturnType<typeof summariseProfile>;

/** A measure's section of the report: its method, rows, notes, profiles and failed scenarios. */
export type MeasureResult = Awaited<ReturnType<typeof runMeasure>>;

export interface BenchReport {
  readonly mode: 'full' | 'quick';
  /** The measures or scenarios asked for with --only (a partial run); absent when all ran. */
  readonly only?: readonly string[];
  readonly machine: ReturnType<typeof machineInfo>;
  readonly simulatorBuild: string;
  readonly peers: string;
  readonly measures: readonly MeasureResult[];
  /** With --before ROOT: the same measures against the simulators of that checkout. */
  readonly before?: { readonly root: string; readonly measures: readonly MeasureResult[] };
  readonly durationMs: number;
}

/** What every scenario gets: sizes, where things are, and which subjects this run can start. */
export interface BenchContext {
  readonly config: BenchConfig;
  /** The repository root (the harness and its baselines). */
  readonly root: string;
  /** The checkout whose simulators are measured: `root`, or the other one of `--before ROOT`. */
  readonly simRoot: string;
  /** Scratch output (profiles, peer data files, users files); bench/results/raw is git-ignored. */
  readonly rawDir: string;
  /** Undefined when the peers are not installed (quick mode does not install them). */
  readonly peers: PeerTools | undefined;
  /** When to run a missed scenario again with our simulators profiled: on a miss (full runs), always, never (quick). */
  readonly profileMode: 'miss' | 'always' | 'never';
  /** Set on that second run: where our simulators write their profiles (harness/processes.ts ourSim). */
  readonly profileDir?: string;
  log(message: string): void;
}

/**
 * A scenario: a file under bench/src/scenarios/<measure>/ (docs/development.md, "Adding a row"),
 * most made by a driver (bench/src/drivers) from a few lines describing what to measure.
 */
export interface Scenario {
  /** How it measures, for the measure's method list (lines shared by scenarios appear once). */
  method(ctx: BenchContext): readonly string[];
  /** Its rows of the measure's table, and notes. */
  run(ctx: BenchContext): Promise<{ rows: readonly Comparison[]; notes?: readonly string[] }>;
  /** It compares with the peer mock servers (installed for it in a full run). */
  readonly peers?: boolean;
}
