/**
 * The margins the long-poll checks grade with, in one place so docs/certify.md and the summaries say
 * the same. A well-behaved client needs a few ms for each of these on a loaded machine; the
 * limits leave it 10x that or more, and stay short of what the broken behaviours take.
 */
export const LONG_POLL_LIMITS = {
  /** After a 200 or a 204 the next poll starts within this (interface 4.2, 4.3: "immediately"). */
  repollWithinMs: 1000,
  /** After a page that says hasMore, the next page is asked for within this. */
  hasMoreWithinMs: 500,
  /** After a 401 the client authenticates and polls again within this. */
  reauthWithinMs: 5000,
  /** After its connection was reset the client polls again within this. */
  recoverWithinMs: 5000,
  /** The fault run of backoff-on-5xx: this many 503 answers, each with this Retry-After. */
  backoffRun: 3,
  retryAfterSeconds: 2,
  /** Requests in any one second while 503s are answered. */
  backoffMaxPerSecond: 5,
  /** Requests in any one second of the whole run. */
  hotLoopMaxPerSecond: 20,
  /** Timestamps are whole ms taken on either side of a socket: a wait this much short still counts. */
  clockToleranceMs: 50,
  /** How long a published message may take to reach a client that polls as it should. */
  deliveryTimeoutMs: 5000,
  /** How long the first poll may take to come after the client starts. */
  firstPollTimeoutMs: 15_000,
} as const;
