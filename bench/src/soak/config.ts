import { JSON_CHANNELS } from '@racedata/json-sim';
import { LEGACY_CHANNELS } from '@racedata/legacy-sim';

export type SoakOptions = Partial<{ quick: boolean; minutes: number; hangUpShare: number }> & {
  readonly hangUpStyle?: 'close' | 'reset';
};

/** Sizes and rates of one soak run; quick mode is the smoke run `npm test` drives in seconds. */
export function soakConfig(options: SoakOptions = {}) {
  const quick = options.quick ?? false;
  const loadMs = quick ? 5000 : Math.round((options.minutes ?? 3) * 60_000);
  return {
    quick,
    /** How long messages are posted, before the final drain. */
    loadMs,
    /** The first part of the load after which resident memory must stay flat. */
    warmUpMs: quick ? 2000 : Math.min(60_000, Math.round(loadMs / 5)),
    /** The longest the final drain waits for the last deliveries. */
    drainMs: quick ? 6000 : 40_000,
    /** Clients of each transport. */
    clients: quick
      ? { 'legacy-listens': 30, 'json-polls': 30, stomp: 20, 'event-stream': 30 }
      : { 'legacy-listens': 500, 'json-polls': 500, stomp: 300, 'event-stream': 500 },
    /** Users of each simulator the clients are spread over (round robin). */
    legacyUsers: quick ? 5 : 50,
    jsonUsers: quick ? 4 : 10,
    /** Share of the legacy long-pollers that hang up at random mid-poll and reconnect. */
    hangUpShare: options.hangUpShare ?? 0.2,
    /**
     * 'reset' (default): drop the socket at once, like a killed client; 'close': send FIN and still
     * read what the server had already sent, so only the server's own handling can lose a message.
     */
    hangUpStyle: options.hangUpStyle ?? ('reset' as const),
    /** Messages per second of each of the four kinds (legacy Durable / NonDurable, JSON durable / transient). */
    postsPerSecond: quick ? 10 : 4,
    /** LONG_POLL_TIMEOUT_MS of both simulators. */
    longPollTimeoutMs: quick ? 2000 : 15_000,
    rssEveryMs: quick ? 1000 : 10_000,
    probeEveryMs: 100,
  };
}

export type SoakConfig = ReturnType<typeof soakConfig>;

/**
 * Each kind of message, posted to its targets in turn (the built-in catalogs, so the soak follows
 * the simulators when a channel is added), and the transport that receives it; durable first.
 * Legacy posts go to `id` (every user) or to a channel (its subscribers).
 */
export const TRANSPORTS = [
  { name: 'legacy listen', clients: 'legacy-listens', sim: 'legacy', kind: 'Durable' },
  { name: 'JSON /events', clients: 'json-polls', sim: 'json', kind: 'durable' },
  { name: 'legacy STOMP', clients: 'stomp', sim: 'legacy', kind: 'NonDurable' },
  { name: 'JSON event-stream', clients: 'event-stream', sim: 'json', kind: 'transient' },
] as const;
export const TARGETS = {
  ...{ Durable: ['id', ...LEGACY_CHANNELS.durable], NonDurable: ['id', ...LEGACY_CHANNELS.transient] },
  ...{ durable: JSON_CHANNELS.durable, transient: JSON_CHANNELS.transient },
};

/** The subscriptions of the users generated beside the built-in ones, taken in turn ('*': every channel). */
export const SUBSCRIPTIONS = {
  json: [
    [...JSON_CHANNELS.durable, ...JSON_CHANNELS.transient].filter((c) => c.endsWith('Gallop')),
    ['StartListTrot', 'ScratchingsTrot', 'TimeToDefTrot', 'PrelDisqualifiedHorsesTrot'],
  ],
  legacy: [
    ['RaceDay', 'StartList', 'TimeToStart', 'SplitTimes'],
    ['Result', 'Scratchings', 'TimeToDef', 'Last500Meters', 'PrelDisqualifiedHorses'],
    '*' as const,
  ],
};
