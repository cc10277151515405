/** Sizes and durations of one run; quick mode is the smoke run a test drives in about a minute. */
export const FULL_CONFIG = {
  quick: false as boolean,
  latency: { clients: 200, messages: 2000, rounds: 4 },
  /**
   * Open-loop fan-out: ours and bare in paired rounds at the offered rate (messages posted per
   * second, on a schedule that never waits); roundMs is one side's posting in a round (the drain
   * of the last deliveries comes on top), warmupMs each side's discarded first round.
   */
  fanOut: { clients: 1000, rate: 100, roundMs: 3000, rounds: 7, warmupMs: 1000 },
  /** Processes holding the clients of every delivery measure, apart from the harness and the servers. */
  clientProcesses: 2,
  /** Store sizes, each its own CLI process; the largest is held flat against the one before it (the reference store). */
  read: {
    connections: 32,
    roundSeconds: 1,
    rounds: 8,
    sizes: [10_000, 100_000, 1_000_000] as readonly number[],
  },
  /**
   * Two simulators but for a switch (control plane, request logging), in paired rounds of roundMs
   * a side: streamClients event-stream and STOMP clients, pollClients held polls, at most `window`
   * messages posted but not yet delivered everywhere; readEvents stored before the page reads.
   */
  controlPlane: {
    streamClients: 500,
    pollClients: 200,
    window: 16,
    readConnections: 32,
    readEvents: 100_000,
  },
  pairedRounds: { roundMs: 1000, rounds: 16 },
  // A start here moves by 15% with the core it lands on: 30 per subject hold the median steady.
  startUp: { repeats: 30 },
  /** Timings of each per-test cost (a reset, a sandbox, ...) per simulator. */
  perTest: { repeats: 300 },
  /** JSON store sizes, each filled over HTTP into its own CLI process; the caps take capMultiple x the cap. */
  memory: {
    ...{ storeSizes: [10_000, 100_000, 1_000_000] as readonly number[], legacyMessages: 100_000 },
    ...{ eventCap: 20_000, legacyCap: 5_000, capMultiple: 6 },
  },
  /** Days generated one at a time (median), consecutive days, starts with and without a day. */
  raceDay: { days: 10, month: 31, repeats: 10 },
};

export type BenchConfig = typeof FULL_CONFIG;

export const QUICK_CONFIG: BenchConfig = {
  quick: true,
  latency: { clients: 10, messages: 40, rounds: 2 },
  fanOut: { clients: 50, rate: 100, roundMs: 400, rounds: 2, warmupMs: 200 },
  clientProcesses: 2,
  read: { connections: 8, roundSeconds: 0.5, rounds: 2, sizes: [2_000, 10_000] },
  controlPlane: { streamClients: 20, pollClients: 10, window: 8, readConnections: 8, readEvents: 2_000 },
  pairedRounds: { roundMs: 200, rounds: 2 },
  startUp: { repeats: 1 },
  perTest: { repeats: 20 },
  memory: {
    ...{ storeSizes: [2_000, 10_000], legacyMessages: 5_000 },
    ...{ eventCap: 1_000, legacyCap: 500, capMultiple: 3 },
  },
  raceDay: { days: 3, month: 7, repeats: 2 },
};
