import type { Server, SimKind } from '../harness/processes';
import type { Check } from '../types';

/**
 * Sizes of one abuse run. `full` is the run the committed results come from (a few minutes),
 * `quick` a smoke run under a minute, `smoke` the test suite's even smaller one.
 */
export type AbuseMode = 'smoke' | 'quick' | 'full';

export function abuseConfig(mode: AbuseMode) {
  const size = (full: number, quick: number, smoke: number) =>
    mode === 'full' ? full : mode === 'quick' ? quick : smoke;
  return {
    mode,
    /** GET /health from a separate process this often during every phase. */
    probeEveryMs: 10,
    rssEveryMs: 50,
    listenStorm: {
      hangUpPollers: size(100, 50, 20),
      honestPollers: size(4, 4, 2),
      messages: size(2000, 500, 100),
      burst: 10,
      maxHangUpMs: 20,
      drainMs: size(30_000, 10_000, 5000),
      /** Seeds the hang-up delays, so a storm that lost a message can be run again as it was. */
      seed: 1,
    },
    journalWaits: { waiters: size(1000, 200, 50), durationMs: size(20_000, 5000, 2000), postsPerSecond: 100 },
    streamNonReaders: {
      clients: size(100, 20, 5),
      durationMs: size(20_000, 5000, 2000),
      postsPerSecond: 200,
    },
    faultBodies: { rules: size(100, 20, 5), bodyBytes: 1_000_000, holdMs: size(10_000, 3000, 1500) },
    abandoned: {
      clients: size(3000, 500, 100),
      concurrency: size(200, 100, 100),
      settleMs: size(3000, 1500, 500),
    },
    crossSandbox: { attemptsEach: size(5, 3, 1) },
    clock: { advances: size(3000, 500, 100) },
    /** Durable posts of 1 MiB each, `concurrency` at a time. */
    legacyFlood: { posts: size(800, 200, 20), concurrency: size(8, 8, 4) },
  };
}

export type AbuseConfig = ReturnType<typeof abuseConfig>;

/** What a phase's body reports; the runner adds the process figures. */
export interface PhaseOutcome {
  readonly checks: readonly Check[];
  /** RSS growth (peak - start) the documented caps allow during this abuse, in MB, and why. */
  readonly rssBudget: { readonly mb: number; readonly why: string };
  readonly notes?: readonly string[];
}

export interface Phase {
  readonly id: number;
  /** What --only may name it by, beside its number. */
  readonly name: string;
  readonly title: string;
  readonly simulators: ReadonlyArray<SimKind>;
  /** Extra environment of the simulators of this phase. */
  readonly env?: Record<string, string>;
  run(sims: Partial<Record<SimKind, Server>>, config: AbuseConfig): Promise<PhaseOutcome>;
}

/**
 * RSS growth any phase may show on top of what its documented caps allow: V8's heap growing under
 * load and socket buffers (the soak's simulators grow 50-80 MB under steady load).
 */
export const RSS_HEADROOM_MB = 128;
