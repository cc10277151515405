/** Sizes and rates of one soak run; quick mode is the smoke run `npm test` drives in seconds. */
export interface SoakConfig {
  readonly quick: boolean;
  /** How long messages are posted, before the final drain. */
  readonly loadMs: number;
  /** The first part of the load after which resident memory must stay flat. */
  readonly warmUpMs: number;
  /** The longest the final drain waits for the last deliveries. */
  readonly drainMs: number;
  readonly clients: {
    readonly legacyPollers: number;
    readonly jsonPollers: number;
    readonly eventStream: number;
    readonly stomp: number;
  };
  /** Users of each simulator the clients are spread over (round robin). */
  readonly legacyUsers: number;
  readonly jsonUsers: number;
  /** Share of the legacy long-pollers that hang up at random mid-poll and reconnect. */
  readonly hangUpShare: number;
  /**
   * 'reset' (default): drop the socket at once, like a killed client; 'close': send FIN and still
   * read what the server had already sent, so only the server's own handling can lose a message.
   */
  readonly hangUpStyle: 'close' | 'reset';
  /** Messages per second of each of the four kinds (legacy Durable / NonDurable, JSON durable / transient). */
  readonly postsPerSecond: number;
  /** LONG_POLL_TIMEOUT_MS of both simulators. */
  readonly longPollTimeoutMs: number;
  readonly rssEveryMs: number;
  readonly probeEveryMs: number;
}

export interface SoakOptions {
  readonly quick?: boolean;
  readonly minutes?: number;
  readonly hangUpShare?: number;
  readonly hangUpStyle?: 'close' | 'reset';
}

export function soakConfig(options: SoakOptions = {}): SoakConfig {
  const hangUpShare = options.hangUpShare ?? 0.2;
  const hangUpStyle = options.hangUpStyle ?? 'reset';
  if (options.quick) {
    return {
      quick: true,
      loadMs: 5000,
      warmUpMs: 2000,
      drainMs: 6000,
      clients: { legacyPollers: 30, jsonPollers: 30, eventStream: 30, stomp: 20 },
      legacyUsers: 5,
      jsonUsers: 4,
      hangUpShare,
      hangUpStyle,
      postsPerSecond: 10,
      longPollTimeoutMs: 2000,
      rssEveryMs: 1000,
      probeEveryMs: 100,
    };
  }
  const minutes = options.minutes ?? 3;
  const loadMs = Math.round(minutes * 60_000);
  return {
    quick: false,
    loadMs,
    warmUpMs: Math.min(60_000, Math.round(loadMs / 5)),
    drainMs: 40_000,
    clients: { legacyPollers: 500, jsonPollers: 500, eventStream: 500, stomp: 300 },
    legacyUsers: 50,
    jsonUsers: 10,
    hangUpShare,
    hangUpStyle,
    postsPerSecond: 4,
    longPollTimeoutMs: 15_000,
    rssEveryMs: 10_000,
    probeEveryMs: 100,
  };
}

/** Every message kind the poster injects; each has its own sequence numbers from 1. */
export const KINDS = ['legacyDurable', 'legacyNonDurable', 'jsonDurable', 'jsonTransient'] as const;
export type MessageKind = (typeof KINDS)[number];
