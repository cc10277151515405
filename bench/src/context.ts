import type { BenchConfig } from './config';
import type { PeerTools } from './peer-tools/peer-install';

/** What every measure gets: sizes, where things are, and which subjects this run can start. */
export interface BenchContext {
  readonly config: BenchConfig;
  /** The repository root (the harness and its baselines). */
  readonly root: string;
  /** The checkout whose simulators are measured: `root`, or the other one of `--before ROOT`. */
  readonly simRoot: string;
  readonly outDir: string;
  /** Scratch output (profiles, peer data files); bench/results/raw is git-ignored. */
  readonly rawDir: string;
  /** Undefined when the peers are not installed (quick mode does not install them). */
  readonly peers: PeerTools | undefined;
  /** When to rerun our side under the CPU profiler: on a miss (full runs), always, or never (quick). */
  readonly profileMode: 'miss' | 'always' | 'never';
  log(message: string): void;
}

export function shouldProfile(ctx: BenchContext, verdict: string): boolean {
  return ctx.profileMode === 'always' || (ctx.profileMode === 'miss' && verdict === 'MISS');
}
