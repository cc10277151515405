import type { Replayer, TransientHub } from '@racedata/core';
import type { LegacyPublishInput, LegacyPublishResult, TransientXmlMessage } from './legacy-bus';
import type { LegacyQueues } from './queue/legacy-queues';

/**
 * In-process access to a legacy simulator for its own tests and the benchmark harness, handed
 * only to a caller that asks for it with `deps.probe`. Not part of Simulator: the CLI,
 * embedders and clients see HTTP and STOMP only.
 */
export interface LegacySimulatorProbe {
  /** What the injection endpoints do after reading the body, without HTTP. */
  publish(input: LegacyPublishInput): LegacyPublishResult;
  /** The per-user queues of the long poll (totalWaiting: the held polls). */
  readonly queues: Pick<
    LegacyQueues,
    'depth' | 'totalDepth' | 'totalLeased' | 'totalWaiting' | 'queuedBytes' | 'dropCounts' | 'droppedCount'
  >;
  /** The transient fan-out to STOMP sessions. */
  readonly hub: Pick<TransientHub<TransientXmlMessage>, 'size' | 'subscribe'>;
  /** Open STOMP connections. */
  readonly stompSessions: number;
  /** The auto replay, when AUTO_REPLAY_MESSAGE_INTERVAL or MAX_DELAY and recordings are given. */
  readonly replay: Replayer | undefined;
}
