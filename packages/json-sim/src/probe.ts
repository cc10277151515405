import type { EventInput, Replayer } from '@racedata/core';
import type { PublishResult } from './channel-bus';
import type { EventStore } from './store/event-store';
import type { LongPollHub } from './store/long-poll';

/**
 * In-process access to a JSON simulator for its own tests and the benchmark harness, handed
 * only to a caller that asks for it with `deps.probe`. Not part of Simulator: the CLI,
 * embedders and clients see HTTP and WebSocket only.
 */
export interface JsonSimulatorProbe {
  /** The path POST /api/message takes after parsing, without HTTP. */
  publish(input: EventInput): PublishResult;
  /** The durable event log, to read. */
  readonly store: Pick<EventStore, 'size' | 'dropped' | 'lastEventId' | 'latest' | 'query' | 'events'>;
  /** The held long polls. */
  readonly polls: Pick<LongPollHub, 'size' | 'hold'>;
  /** Authenticated event-stream sessions. */
  readonly streamSessions: number;
  /** The auto replay, when AUTO_REPLAY_MESSAGE_INTERVAL or MAX_DELAY and recordings are given. */
  readonly replay: Replayer | undefined;
}
