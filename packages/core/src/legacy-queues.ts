import type { Clock, TimerHandle } from './clock';
import type { Logger } from './logger';
import type { User } from './users';

export interface LegacyMessage {
  readonly id: number;
  /** Catalog channel, or null for the legacy `id` address (every user). */
  readonly channel: string | null;
  readonly payloadKey: string;
  readonly xml: string;
  readonly enqueuedAt: number;
}

/**
 * A message handed to one poll. It stays in the queue, invisible to other polls, until ack()
 * (the response was written) or release() (the client left first; it goes back to the head).
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
  logger?: Logger;
}

interface Entry {
  readonly message: LegacyMessage;
  leased: boolean;
}

interface Taker {
  resolve(lease: Lease | undefined): void;
}

interface UserQueue {
  entries: Entry[];
  readonly takers: Taker[];
}

/** One queue per user for the XML long poll, kept for the retention period and up to a cap. */
export class LegacyQueues {
  private readonly queues = new Map<string, UserQueue>();
  private nextId = 1;
  private closed = false;
  private dropped = 0;

  constructor(private readonly options: LegacyQueuesOptions) {}

  /** Messages dropped so far because a queue hit its cap. */
  get droppedCount(): number {
    return this.dropped;
  }

  /** Puts the message on each user's queue; returns how many queues took it. */
  enqueue(
    users: readonly User[],
    input: { channel: string | null; payloadKey: string; xml: string },
  ): number {
    const message: LegacyMessage = Object.freeze({
      id: this.nextId++,
      channel: input.channel,
      payloadKey: input.payloadKey,
      xml: input.xml,
      enqueuedAt: this.options.clock.now(),
    });
    for (const user of users) {
      const queue = this.queueOf(user);
      this.prune(queue);
      if (queue.entries.length >= this.options.maxPerUser) this.dropOldest(queue, user);
      queue.entries.push({ message, leased: false });
      this.dispatch(queue);
    }
    return users.length;
  }

  /** The next message for the user, waiting up to timeoutMs; undefined on timeout, abort or close. */
  take(user: User, options: { timeoutMs: number; signal?: AbortSignal }): Promise<Lease | undefined> {
    if (this.closed || options.signal?.aborted) return Promise.resolve(undefined);
    const queue = this.queueOf(user);
    this.prune(queue);
    const entry = queue.entries.find((e) => !e.leased);
    if (entry && queue.takers.length === 0) return Promise.resolve(this.lease(queue, entry));
    return new Promise((resolve) => {
      const signal = options.signal;
      // Callbacks below only run after every binding exists: the timer fires later, dispatch runs last.
      const timer: TimerHandle = this.options.clock.setTimeout(() => finish(undefined), options.timeoutMs);
      const finish = (lease: Lease | undefined) => {
        const at = queue.takers.indexOf(taker);
        if (at >= 0) queue.takers.splice(at, 1);
        timer.cancel();
        signal?.removeEventListener('abort', onAbort);
        resolve(lease);
      };
      const taker: Taker = { resolve: finish };
      const onAbort = () => finish(undefined);
      queue.takers.push(taker);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.dispatch(queue);
    });
  }

  depth(user: User): number {
    const queue = this.queues.get(user.key);
    if (!queue) return 0;
    this.prune(queue);
    return queue.entries.length;
  }

  /** Total queued messages across users (for memory reporting). */
  get totalDepth(): number {
    let n = 0;
    for (const queue of this.queues.values()) n += queue.entries.length;
    return n;
  }

  /** Answers every waiting poll with nothing; queued messages are kept until the process ends. */
  close(): void {
    this.closed = true;
    for (const queue of this.queues.values()) {
      for (const taker of [...queue.takers]) taker.resolve(undefined);
    }
  }

  private queueOf(user: User): UserQueue {
    let queue = this.queues.get(user.key);
    if (!queue) {
      queue = { entries: [], takers: [] };
      this.queues.set(user.key, queue);
    }
    return queue;
  }

  private dispatch(queue: UserQueue): void {
    while (queue.takers.length > 0) {
      const entry = queue.entries.find((e) => !e.leased);
      if (!entry) return;
      const taker = queue.takers[0] as Taker;
      taker.resolve(this.lease(queue, entry));
    }
  }

  private lease(queue: UserQueue, entry: Entry): Lease {
    entry.leased = true;
    let settled = false;
    return {
      message: entry.message,
      ack: () => {
        if (settled) return;
        settled = true;
        const at = queue.entries.indexOf(entry);
        if (at >= 0) queue.entries.splice(at, 1);
      },
      release: () => {
        if (settled) return;
        settled = true;
        entry.leased = false;
        this.prune(queue);
        if (queue.entries.includes(entry)) this.dispatch(queue);
      },
    };
  }

  private prune(queue: UserQueue): void {
    const cutoff = this.options.clock.now() - this.options.retentionMs;
    const head = queue.entries[0];
    if (!head || head.message.enqueuedAt > cutoff) return;
    queue.entries = queue.entries.filter((e) => e.leased || e.message.enqueuedAt > cutoff);
  }

  private dropOldest(queue: UserQueue, user: User): void {
    const at = queue.entries.findIndex((e) => !e.leased);
    if (at < 0) return;
    queue.entries.splice(at, 1);
    this.dropped++;
    this.options.logger?.warn(
      { user: user.key, max: this.options.maxPerUser },
      'legacy queue full; dropped its oldest message',
    );
  }
}
