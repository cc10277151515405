import type { TimerHandle, User } from '@racedata/core';
import { documentBytes, type LegacyDocument } from '../legacy-document';
import { QueuedDocument } from './queued-document';
import type { HeldPoll, Lease, LegacyDropCounts, LegacyMessage, LegacyQueuesOptions, Waiter } from './types';

export type { HeldPoll, Lease, LegacyDropCounts, LegacyMessage, LegacyQueuesOptions, Waiter } from './types';
export type { ListenAnswer } from './queued-document';

/** The document a queued message carries, decoded again (tests, diagnostics; never on delivery). */
export function xmlOf(message: LegacyMessage): string;
export function xmlOf(message: LegacyMessage | undefined): string | undefined;
export function xmlOf(message: LegacyMessage | undefined): string | undefined {
  return message?.document.xml;
}

/** One message however many queues hold it; its bytes count once while any queue does. */
interface Stored {
  readonly message: LegacyMessage;
  readonly bytes: number;
  readonly holders: Set<UserQueue>;
}

interface Entry {
  readonly stored: Stored;
  leased: boolean;
}

interface UserQueue {
  entries: Entry[];
  readonly takers: Taker[];
}

/**
 * A held poll: an object with methods rather than a promise, an abort signal and their
 * closures, since one is made for every long poll a client sends.
 */
class Taker implements HeldPoll {
  timer: TimerHandle | undefined;
  private done = false;

  constructor(
    private readonly queue: UserQueue,
    private readonly waiter: Waiter,
  ) {}

  /** Leaves the queue and answers the waiter, once. */
  settle(lease: Lease | undefined): void {
    if (!this.leave()) return;
    this.waiter.answer(lease);
  }

  cancel(): void {
    this.leave();
  }

  private leave(): boolean {
    if (this.done) return false;
    this.done = true;
    const takers = this.queue.takers;
    // Usually the first: dispatch answers the oldest poll.
    const at = takers[0] === this ? 0 : takers.indexOf(this);
    if (at >= 0) takers.splice(at, 1);
    this.timer?.cancel();
    return true;
  }
}

/** How often at most the drop summary is logged: a flood must not become a log flood. */
const DROP_SUMMARY_MS = 1_000;

/**
 * One queue per user for the XML long poll, kept for the retention period, up to a count per user
 * and a byte budget shared by all users (the budget is what bounds the process's memory; a
 * message sent to many users is stored once).
 */
export class LegacyQueues {
  private readonly queues = new Map<string, UserQueue>();
  private bytes = 0;
  private nextId = 1;
  private closed = false;
  private drops = { count: 0, bytes: 0 };
  private unreported = { count: 0, bytes: 0 };
  private summaryTimer: TimerHandle | undefined;

  constructor(private readonly options: LegacyQueuesOptions) {}

  /** Messages dropped so far because a queue hit its cap or the queues their byte budget. */
  get droppedCount(): number {
    return this.drops.count + this.drops.bytes;
  }

  get dropCounts(): LegacyDropCounts {
    return { ...this.drops };
  }

  /** UTF-8 bytes of the distinct messages queued now (leased ones included). */
  get queuedBytes(): number {
    return this.bytes;
  }

  /** The byte budget; a single message larger than this can never be queued. */
  get maxBytes(): number {
    return this.options.maxBytes ?? Number.POSITIVE_INFINITY;
  }

  /**
   * Puts the message on each user's queue; returns how many queues took it. The document's UTF-8
   * bytes, when the caller has them, are kept rather than a copy (QueuedDocument).
   */
  enqueue(
    users: readonly User[],
    input: { readonly channel: string | null; readonly payloadKey: string } & LegacyDocument,
  ): number {
    const message: LegacyMessage = Object.freeze({
      id: this.nextId++,
      channel: input.channel,
      payloadKey: input.payloadKey,
      document: new QueuedDocument(input),
      enqueuedAt: this.options.clock.now(),
    });
    const bytes = documentBytes(input);
    const stored: Stored = { message, bytes, holders: new Set() };
    const targets = users.map((user) => this.queueOf(user));
    for (const queue of targets) this.prune(queue);
    this.makeRoom(stored.bytes);
    for (const queue of targets) {
      if (queue.entries.length >= this.options.maxPerUser) this.dropOldest(queue);
      queue.entries.push({ stored, leased: false });
      this.addHolder(stored, queue);
    }
    for (const queue of targets) this.dispatch(queue);
    return users.length;
  }

  /**
   * Hands the user's next message to `waiter`: at once (before hold returns) when one is
   * queued and no other poll waits, else when one arrives; undefined after timeoutMs, on close
   * or on clear. Returns the poll's place in the queue; cancel() does nothing once answered.
   */
  hold(user: User, timeoutMs: number, waiter: Waiter): HeldPoll | undefined {
    if (this.closed) {
      waiter.answer(undefined);
      return undefined;
    }
    const queue = this.queueOf(user);
    this.prune(queue);
    const entry = queue.takers.length === 0 ? queue.entries.find((e) => !e.leased) : undefined;
    if (entry) {
      waiter.answer(this.lease(queue, entry));
      return undefined;
    }
    const taker = new Taker(queue, waiter);
    queue.takers.push(taker);
    taker.timer = this.options.clock.setTimeout(() => taker.settle(undefined), timeoutMs);
    this.dispatch(queue);
    return taker;
  }

  /** The next message for the user, waiting up to timeoutMs; undefined on timeout, abort or close. */
  take(user: User, options: { timeoutMs: number; signal?: AbortSignal }): Promise<Lease | undefined> {
    const signal = options.signal;
    if (signal?.aborted) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      // Declared as a function so the answer (maybe given before hold returns) can name it.
      function onAbort(): void {
        held?.cancel();
        resolve(undefined);
      }
      const held = this.hold(user, options.timeoutMs, {
        answer: (lease) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(lease);
        },
      });
      if (held) signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Messages queued for the user, leased ones included. */
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

  /** Polls waiting for a message, across users. */
  get totalWaiting(): number {
    let n = 0;
    for (const queue of this.queues.values()) n += queue.takers.length;
    return n;
  }

  /** Messages handed to a poll and not yet acked or released, across users. */
  get totalLeased(): number {
    let n = 0;
    for (const queue of this.queues.values()) n += leasedIn(queue);
    return n;
  }

  /** By user key: messages waiting for a poll, leased to one (not yet acked), and waiting polls. */
  usersState(): Map<string, { depth: number; unconfirmed: number; waiting: number }> {
    const state = new Map<string, { depth: number; unconfirmed: number; waiting: number }>();
    for (const [key, queue] of this.queues) {
      this.prune(queue);
      const unconfirmed = leasedIn(queue);
      state.set(key, {
        depth: queue.entries.length - unconfirmed,
        unconfirmed,
        waiting: queue.takers.length,
      });
    }
    return state;
  }

  /**
   * Drops every queued message not in a poll's hands (POST /_sim/reset) and answers every
   * waiting poll with nothing (204); returns how many messages went and polls were answered.
   */
  clear(): { messages: number; polls: number } {
    let messages = 0;
    let polls = 0;
    for (const queue of this.queues.values()) {
      for (const entry of queue.entries.filter((e) => !e.leased)) {
        this.remove(queue, entry);
        messages++;
      }
      for (const taker of [...queue.takers]) {
        taker.settle(undefined);
        polls++;
      }
    }
    return { messages, polls };
  }

  /** Answers every waiting poll with nothing; queued messages are kept until the process ends. */
  close(): void {
    this.closed = true;
    for (const queue of this.queues.values()) {
      for (const taker of [...queue.takers]) taker.settle(undefined);
    }
    this.summaryTimer?.cancel();
    this.summaryTimer = undefined;
    this.reportDrops();
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
      taker.settle(this.lease(queue, entry));
    }
  }

  private lease(queue: UserQueue, entry: Entry): Lease {
    entry.leased = true;
    let settled = false;
    return {
      message: entry.stored.message,
      ack: () => {
        if (settled) return;
        settled = true;
        this.remove(queue, entry);
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

  private addHolder(stored: Stored, queue: UserQueue): void {
    if (stored.holders.size === 0) this.bytes += stored.bytes;
    stored.holders.add(queue);
  }

  private remove(queue: UserQueue, entry: Entry): void {
    const at = queue.entries.indexOf(entry);
    if (at < 0) return;
    queue.entries.splice(at, 1);
    this.unhold(entry.stored, queue);
  }

  private unhold(stored: Stored, queue: UserQueue): void {
    if (!stored.holders.delete(queue)) return;
    if (stored.holders.size === 0) this.bytes -= stored.bytes;
  }

  private prune(queue: UserQueue): void {
    const cutoff = this.options.clock.now() - this.options.retentionMs;
    const head = queue.entries[0];
    if (!head || head.stored.message.enqueuedAt > cutoff) return;
    const kept: Entry[] = [];
    for (const entry of queue.entries) {
      if (entry.leased || entry.stored.message.enqueuedAt > cutoff) kept.push(entry);
      else this.unhold(entry.stored, queue);
    }
    queue.entries = kept;
  }

  private dropOldest(queue: UserQueue): void {
    const entry = queue.entries.find((e) => !e.leased);
    if (!entry) return;
    this.remove(queue, entry);
    this.countDrop('count');
  }

  /**
   * Drops the oldest messages from every queue until `incoming` more bytes fit the budget. Queues
   * keep enqueue order (a released message returns to its place), so the oldest message is the
   * first unleased entry of some queue. A leased message stays with the poll that holds it.
   */
  private makeRoom(incoming: number): void {
    if (this.bytes + incoming > this.maxBytes) for (const queue of this.queues.values()) this.prune(queue);
    while (this.bytes + incoming > this.maxBytes) {
      let oldest: Stored | undefined;
      for (const queue of this.queues.values()) {
        const first = queue.entries.find((e) => !e.leased)?.stored;
        if (first && (!oldest || first.message.id < oldest.message.id)) oldest = first;
      }
      if (!oldest) return;
      for (const queue of [...oldest.holders]) {
        const entry = queue.entries.find((e) => e.stored === oldest);
        if (entry && !entry.leased) this.remove(queue, entry);
      }
      this.countDrop('bytes');
    }
  }

  private countDrop(reason: keyof LegacyDropCounts): void {
    this.drops[reason] += 1;
    this.unreported[reason] += 1;
    this.summaryTimer ??= this.options.clock.setTimeout(() => {
      this.summaryTimer = undefined;
      this.reportDrops();
    }, DROP_SUMMARY_MS);
  }

  private reportDrops(): void {
    const { count, bytes } = this.unreported;
    if (count + bytes === 0) return;
    this.unreported = { count: 0, bytes: 0 };
    this.options.logger?.warn(
      {
        dropped: count + bytes,
        atCountCap: count,
        atByteBudget: bytes,
        maxPerUser: this.options.maxPerUser,
        maxBytes: this.options.maxBytes,
        queuedBytes: this.bytes,
      },
      'legacy queues full; dropped their oldest messages',
    );
  }
}

function leasedIn(queue: UserQueue): number {
  let n = 0;
  for (const entry of queue.entries) if (entry.leased) n++;
  return n;
}
