/**
 * Sizes of one abuse run. `full` is the run the committed results come from (a few minutes),
 * `quick` a smoke run under a minute, `smoke` the test suite's even smaller one.
 */
export type AbuseMode = 'smoke' | 'quick' | 'full';

export interface AbuseConfig {
  readonly mode: AbuseMode;
  /** GET /health from a separate process this often during every phase. */
  readonly probeEveryMs: number;
  readonly rssEveryMs: number;
  readonly listenStorm: {
    readonly hangUpPollers: number;
    readonly honestPollers: number;
    readonly messages: number;
    readonly burst: number;
    readonly maxHangUpMs: number;
    readonly drainMs: number;
    /** Seeds the hang-up delays, so a storm that lost a message can be run again as it was. */
    readonly seed: number;
  };
  readonly journalWaits: {
    readonly waiters: number;
    readonly durationMs: number;
    readonly postsPerSecond: number;
  };
  readonly streamNonReaders: {
    readonly clients: number;
    readonly durationMs: number;
    readonly postsPerSecond: number;
  };
  readonly faultBodies: { readonly rules: number; readonly bodyBytes: number; readonly holdMs: number };
  readonly abandoned: { readonly clients: number; readonly concurrency: number; readonly settleMs: number };
  readonly crossSandbox: { readonly attemptsEach: number };
  readonly clock: { readonly advances: number };
  /** Durable posts of 1 MiB each, `concurrency` at a time. */
  readonly legacyFlood: { readonly posts: number; readonly concurrency: number };
}

export function abuseConfig(mode: AbuseMode): AbuseConfig {
  const base = { mode, probeEveryMs: 10, rssEveryMs: 50 };
  if (mode === 'full') {
    return {
      ...base,
      listenStorm: {
        hangUpPollers: 100,
        honestPollers: 4,
        messages: 2000,
        burst: 10,
        maxHangUpMs: 20,
        drainMs: 30_000,
        seed: 1,
      },
      journalWaits: { waiters: 1000, durationMs: 20_000, postsPerSecond: 100 },
      streamNonReaders: { clients: 100, durationMs: 20_000, postsPerSecond: 200 },
      faultBodies: { rules: 100, bodyBytes: 1_000_000, holdMs: 10_000 },
      abandoned: { clients: 3000, concurrency: 200, settleMs: 3000 },
      crossSandbox: { attemptsEach: 5 },
      clock: { advances: 3000 },
      legacyFlood: { posts: 800, concurrency: 8 },
    };
  }
  const quick = mode === 'quick';
  return {
    ...base,
    listenStorm: {
      hangUpPollers: quick ? 50 : 20,
      honestPollers: quick ? 4 : 2,
      messages: quick ? 500 : 100,
      burst: 10,
      maxHangUpMs: 20,
      drainMs: quick ? 10_000 : 5000,
      seed: 1,
    },
    journalWaits: { waiters: quick ? 200 : 50, durationMs: quick ? 5000 : 2000, postsPerSecond: 100 },
    streamNonReaders: { clients: quick ? 20 : 5, durationMs: quick ? 5000 : 2000, postsPerSecond: 200 },
    faultBodies: { rules: quick ? 20 : 5, bodyBytes: 1_000_000, holdMs: quick ? 3000 : 1500 },
    abandoned: { clients: quick ? 500 : 100, concurrency: 100, settleMs: quick ? 1500 : 500 },
    crossSandbox: { attemptsEach: quick ? 3 : 1 },
    clock: { advances: quick ? 500 : 100 },
    legacyFlood: { posts: quick ? 200 : 20, concurrency: quick ? 8 : 4 },
  };
}
