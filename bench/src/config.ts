/** Sizes and durations of one run; quick mode is the smoke run a test drives in about a minute. */
export interface BenchConfig {
  readonly quick: boolean;
  readonly latency: { readonly clients: number; readonly messages: number; readonly rounds: number };
  /** Open-loop fan-out: ours and bare in paired rounds at each offered rate. */
  readonly fanOut: {
    readonly clients: number;
    /** Offered rates (messages posted per second, on a schedule that never waits). */
    readonly rates: readonly number[];
    /** Length of one side's posting in a round (the drain of the last deliveries comes on top). */
    readonly roundMs: number;
    /** Paired rounds per rate (each: ours then bare, or bare then ours). */
    readonly rounds: number;
    /** Each side's discarded first round, so both run warm. */
    readonly warmupMs: number;
  };
  readonly read: {
    readonly connections: number;
    readonly roundSeconds: number;
    readonly rounds: number;
    /**
     * Store sizes, each its own CLI process seeded once; the largest is held flat against the
     * one before it (the reference store, whose page the peers serve).
     */
    readonly sizes: readonly number[];
  };
  /** The control plane on against off, in paired rounds (control-plane-cost). */
  readonly controlPlane: {
    /** Event-stream WebSocket clients and STOMP subscribers. */
    readonly streamClients: number;
    /** Held GET /customerapi/events polls. */
    readonly pollClients: number;
    /** Messages posted but not yet delivered to every client. */
    readonly window: number;
    readonly readConnections: number;
    /** Events stored before the page reads. */
    readonly readEvents: number;
    /** Length of one side's turn in a round, for every scenario. */
    readonly roundMs: number;
    /** Paired rounds (each: on then off, or off then on). */
    readonly rounds: number;
  };
  readonly startUp: { readonly repeats: number };
  /** Sandboxes created (and deleted) one after another per simulator. */
  readonly sandboxes: { readonly creates: number };
  readonly memory: {
    /** JSON store sizes, each seeded over HTTP into its own CLI process. */
    readonly storeSizes: readonly number[];
    readonly legacyMessages: number;
    readonly eventCap: number;
    readonly legacyCap: number;
    /** Injected messages as a multiple of the cap in the sustained run. */
    readonly capMultiple: number;
  };
  /** How long a profiled rerun of a missed measure drives the simulator. */
  readonly profileMs: number;
}

export const FULL_CONFIG: BenchConfig = {
  quick: false,
  latency: { clients: 200, messages: 2000, rounds: 4 },
  fanOut: { clients: 1000, rates: [100], roundMs: 3000, rounds: 7, warmupMs: 1000 },
  read: { connections: 32, roundSeconds: 1, rounds: 8, sizes: [10_000, 100_000, 1_000_000] },
  controlPlane: {
    streamClients: 500,
    pollClients: 200,
    window: 16,
    readConnections: 32,
    readEvents: 100_000,
    roundMs: 1000,
    rounds: 16,
  },
  startUp: { repeats: 10 },
  sandboxes: { creates: 300 },
  memory: {
    storeSizes: [10_000, 100_000, 1_000_000],
    legacyMessages: 100_000,
    eventCap: 20_000,
    legacyCap: 5_000,
    capMultiple: 6,
  },
  profileMs: 6000,
};

export const QUICK_CONFIG: BenchConfig = {
  quick: true,
  latency: { clients: 10, messages: 40, rounds: 2 },
  fanOut: { clients: 50, rates: [100], roundMs: 400, rounds: 2, warmupMs: 200 },
  read: { connections: 8, roundSeconds: 0.5, rounds: 2, sizes: [2_000, 10_000] },
  controlPlane: {
    streamClients: 20,
    pollClients: 10,
    window: 8,
    readConnections: 8,
    readEvents: 2_000,
    roundMs: 200,
    rounds: 2,
  },
  startUp: { repeats: 1 },
  sandboxes: { creates: 20 },
  memory: {
    storeSizes: [2_000, 10_000],
    legacyMessages: 5_000,
    eventCap: 1_000,
    legacyCap: 500,
    capMultiple: 3,
  },
  profileMs: 1500,
};
