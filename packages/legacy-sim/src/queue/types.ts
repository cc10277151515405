/** What the legacy queues hand out and take: messages, leases, options and waiting polls. */
import type { Clock, Logger } from '@racedata/core';
import type { QueuedDocument } from './queued-document';

export interface LegacyMessage {
  readonly id: number;
  /** Catalog channel, or null for the legacy `id` address (every user). */
  readonly channel: string | null;
  readonly payloadKey: string;
  /** The document, and the long poll's answer made from it (xmlOf reads the document). */
  readonly document: QueuedDocument;
  readonly enqueuedAt: number;
}

/**
 * A message handed to one poll. It stays in the queue, invisible to other polls, until ack()
 * (the client has it) or release() (it did not get it; it goes back to its place in the queue).
 */
export interface Lease {
  readonly message: LegacyMessage;
  ack(): void;
  release(): void;
}

export interface LegacyQueuesOptions {
  clock: Clock;
  retentionMs: number;
  maxPerUser: number;
  /** UTF-8 bytes of distinct queued messages across every user; unlimited when omitted. */
  maxBytes?: number;
  logger?: Logger;
}

/** Why messages were dropped, counted since the queues were made. */
export interface LegacyDropCounts {
  /** A user's queue held maxPerUser messages. */
  readonly count: number;
  /** The queues together held maxBytes. */
  readonly bytes: number;
}

/** A poll waiting for a message (see LegacyQueues.hold). */
export interface Waiter {
  /** The lease, or undefined after the timeout, on close or on clear; called at most once. */
  answer(lease: Lease | undefined): void;
}

/** A waiting poll's place in its user's queue. */
export interface HeldPoll {
  /** Gives up the place (the client hung up); the waiter is not answered. */
  cancel(): void;
}
