import type { Clock, Logger } from '@racedata/core';
import type { CauseLog } from './cause-log';
import type { FetchFn, RequestLimits } from './http-client';
import type { RecordingSink } from './recording-sink';
import type { UpstreamSession } from './upstream-session';

/** What every transport loop is given. */
export interface TransportContext {
  readonly session: UpstreamSession;
  readonly sink: RecordingSink;
  readonly fetch: FetchFn;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Upstream faults, logged once per cause per interval. */
  readonly causes: CauseLog;
  /** Aborted when the recording stops. */
  readonly signal: AbortSignal;
  /**
   * The deadline of one request or handshake, derived from the long-poll limit: a long poll the
   * upstream holds longer, or an answer still trickling in by then, is abandoned and asked again.
   */
  readonly requestTimeoutMs: number;
  /** The most one answer or WebSocket message may hold. */
  readonly maxMessageBytes: number;
  /** Connections, re-authentications and retries, for the summary. */
  readonly stats: TransportStats;
}

/** The limits of one long-poll request of `ctx`. */
export function pollLimits(ctx: TransportContext): RequestLimits {
  return {
    maxBytes: ctx.maxMessageBytes,
    deadlineMs: ctx.requestTimeoutMs,
    clock: ctx.clock,
    signal: ctx.signal,
  };
}

export interface TransportStats {
  connects: number;
  reauthentications: number;
  retries: number;
}

export function newTransportStats(): TransportStats {
  return { connects: 0, reauthentications: 0, retries: 0 };
}
