import type { Clock, Logger } from '@racedata/core';
import type { FetchFn } from './http-client';
import type { RecordingSink } from './recording-sink';
import type { UpstreamSession } from './upstream-session';

/** What every transport loop is given. */
export interface TransportContext {
  readonly session: UpstreamSession;
  readonly sink: RecordingSink;
  readonly fetch: FetchFn;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Aborted when the recording stops. */
  readonly signal: AbortSignal;
  /** How long a long poll may be held before we give up on it and ask again. */
  readonly requestTimeoutMs: number;
  /** The most one answer or WebSocket message may hold. */
  readonly maxMessageBytes: number;
  /** Connections, re-authentications and retries, for the summary. */
  readonly stats: TransportStats;
}

export interface TransportStats {
  connects: number;
  reauthentications: number;
  retries: number;
}

export function newTransportStats(): TransportStats {
  return { connects: 0, reauthentications: 0, retries: 0 };
}
