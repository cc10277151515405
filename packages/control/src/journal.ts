import type { Clock } from '@racedata/core';
import type {
  ClosedInput,
  DeliveredInput,
  JournalCounts,
  JournalRecord,
  ReceivedInput,
} from './journal-types';
import { JournalRing } from './journal-ring';
import { JournalWaiters } from './journal-waiters';
import { PayloadRing } from './payload-ring';
import type { JournalTransport, JournalEntry, JournalKind, JournalFilter, JournalPage } from './wire';

/** The console's payload ring when the journal is not told otherwise: about 8 MB of text. */
export const DEFAULT_PAYLOAD_BYTES = 8 * 1024 * 1024;

/** An entry as kept: the time as a number, formatted only when someone reads the entry. */
type Stored = JournalRecord & { readonly at: number };

function published(entry: Stored): JournalEntry {
  const { at, ...rest } = entry;
  return { ...rest, time: new Date(at).toISOString() } as JournalEntry;
}

/**
 * The delivery journal: a bounded ring (oldest dropped first) of what each simulator received
 * and delivered, numbered by `seq` (never reused, not even across a clear, so a reader's
 * `since` stays valid), with waiters that are answered as soon as enough matching entries exist.
 * Entries are kept in columns (JournalRing): one is recorded per delivered event, so recording
 * must cost next to nothing; objects are made only for readers and console listeners.
 */
export class Journal {
  private readonly ring: JournalRing;
  private seq = 0;
  private readonly waiters: JournalWaiters;
  private readonly listeners = new Set<(entry: JournalRecord) => void>();
  private readonly tallies = {
    delivered: new Map<string, number>(),
    received: new Map<string, number>(),
    closed: new Map<string, number>(),
  };
  /** The payloads of received messages, by seq, for the console's row details. */
  readonly payloads: PayloadRing;

  constructor(
    private readonly clock: Clock,
    private readonly max: number,
    payloadBytes = DEFAULT_PAYLOAD_BYTES,
    /** Waits held at once (JOURNAL_WAITERS_MAX). */
    waitersMax = 100,
  ) {
    this.ring = new JournalRing(max);
    this.waiters = new JournalWaiters(clock, waitersMax, (filter, count) => this.list(filter, count));
    this.payloads = new PayloadRing(max > 0 ? payloadBytes : 0, max);
  }

  /** False with a capacity of 0 (CONTROL_API=off): nothing is recorded. */
  get enabled(): boolean {
    return this.max > 0;
  }

  get size(): number {
    return this.ring.size;
  }

  get capacity(): number {
    return this.max;
  }

  get lastSeq(): number {
    return this.seq;
  }

  /** Entries recorded since the start, by kind and label (cleared journals keep counting). */
  get counts(): JournalCounts {
    return this.tallies;
  }

  /**
   * `payload` is what the message carried (the XML document as text or as UTF-8 bytes, or the
   * JSON event); it is kept in the payload ring, an event serialised here, only while the journal
   * records. Bytes are kept as they are, shared with whoever else holds them.
   */
  received(input: ReceivedInput, payload?: string | Uint8Array | object): void {
    if (this.max === 0) return;
    const seq = ++this.seq;
    if (payload !== undefined && this.payloads.maxBytes > 0) {
      const kept =
        typeof payload === 'string' || payload instanceof Uint8Array ? payload : JSON.stringify(payload);
      this.payloads.put(seq, kept);
    }
    bump(this.tallies.received, input.source);
    this.push(
      'received',
      seq,
      this.clock.now(),
      // A received entry has no user: the column holds the race-day action that made it, if any.
      input.action,
      input.source,
      input.channel,
      input.eventId,
      input.payloadKey,
      input.durable ? 1 : 0,
    );
    this.added();
  }

  delivered(input: DeliveredInput): void {
    if (this.max === 0) return;
    bump(this.tallies.delivered, input.transport);
    this.push(
      'delivered',
      ++this.seq,
      this.clock.now(),
      input.user,
      input.transport,
      input.channel,
      input.eventId,
      input.payloadKey,
      input.status,
    );
    this.added();
  }

  /**
   * One delivered entry per recipient of one message (a transient fan-out), in `users` order:
   * the same transport, channel, message and status, one clock read and one tally bump for
   * all of them. Recorded one by one, the clock read and tally of each showed in the CPU a
   * fan-out spends per client.
   */
  deliveredEach(users: readonly string[], input: Omit<DeliveredInput, 'user'>): void {
    if (this.max === 0 || users.length === 0) return;
    const at = this.clock.now();
    const { transport, channel, eventId, payloadKey, status } = input;
    this.tallies.delivered.set(transport, (this.tallies.delivered.get(transport) ?? 0) + users.length);
    if (this.listeners.size === 0 && this.waiters.size === 0) {
      // Nobody to tell of each entry: recorded as one run (JournalRing.pushEach).
      const shared = {
        kind: 'delivered',
        at,
        via: transport,
        channel,
        eventId,
        payloadKey,
        num: status,
      } as const;
      this.ring.pushEach(this.seq + 1, users, shared);
      this.seq += users.length;
      return;
    }
    for (const user of users) {
      this.push('delivered', ++this.seq, at, user, transport, channel, eventId, payloadKey, status);
      this.added();
    }
  }

  /**
   * One delivered entry per event of a page written to a user: the same user, transport and
   * status, one clock read. A page of a hundred events is a hundred entries, and the per-entry
   * work (a clock read, a tally) showed in the read benchmark.
   */
  deliveredPage(
    user: string,
    transport: JournalTransport,
    status: number,
    eventIds: readonly number[],
    channelOf: (eventId: number) => string,
  ): void {
    if (this.max === 0 || eventIds.length === 0) return;
    const at = this.clock.now();
    this.tallies.delivered.set(transport, (this.tallies.delivered.get(transport) ?? 0) + eventIds.length);
    const tell = this.listeners.size > 0 || this.waiters.size > 0;
    for (const eventId of eventIds) {
      this.push('delivered', ++this.seq, at, user, transport, channelOf(eventId), eventId, undefined, status);
      if (tell) this.added();
    }
  }

  closed(input: ClosedInput): void {
    if (this.max === 0) return;
    bump(this.tallies.closed, `${input.transport} ${input.code}`);
    this.push(
      'closed',
      ++this.seq,
      this.clock.now(),
      input.user,
      input.transport,
      undefined,
      undefined,
      undefined,
      input.code,
    );
    this.added();
  }

  /** Matching entries, oldest first, at most `limit`. */
  list(filter: JournalFilter, limit: number): JournalPage {
    const entries: JournalEntry[] = [];
    const held = this.ring.size;
    for (let i = this.ring.firstAfter(filter.since ?? 0); i < held && entries.length < limit; i++) {
      if (this.ring.matches(i, filter)) entries.push(published(this.ring.record(i)));
    }
    const last = entries[entries.length - 1];
    return { entries, nextSince: last ? last.seq : (filter.since ?? 0) };
  }

  /**
   * Calls `done(page, true)` once `count` matching entries exist (at once if they do already),
   * or `done(page, false)` with what matched so far after timeoutMs. Returns a cancel function.
   */
  wait(
    filter: JournalFilter,
    count: number,
    timeoutMs: number,
    done: (page: JournalPage, complete: boolean) => void,
  ): () => void {
    const now = this.list(filter, count);
    if (now.entries.length >= count) {
      done(now, true);
      return () => undefined;
    }
    return this.waiters.hold(filter, count, now.entries.length, timeoutMs, done);
  }

  /** Waits held now; one whose client went away leaves none behind. */
  get waiterCount(): number {
    return this.waiters.size;
  }

  /**
   * Calls `listener` with every entry added from now on (the console stream forwards them).
   * Returns the function that removes the listener again.
   */
  onEntry(listener: (entry: JournalRecord) => void): () => void {
    const own = (entry: JournalRecord) => listener(entry);
    this.listeners.add(own);
    return () => {
      this.listeners.delete(own);
    };
  }

  /** Listeners registered now; a console stream that went away leaves none behind. */
  get listenerCount(): number {
    return this.listeners.size;
  }

  /** The entry with this seq, while the ring still holds it. */
  get(seq: number): JournalEntry | undefined {
    const i = this.ring.firstAfter(seq - 1);
    if (i >= this.ring.size) return undefined;
    const entry = this.ring.record(i);
    return entry.seq === seq ? published(entry) : undefined;
  }

  /** Drops every entry; returns how many. Sequence numbers go on from where they were. */
  clear(): number {
    const cleared = this.ring.size;
    this.payloads.clear();
    this.ring.clear();
    this.waiters.cleared();
    return cleared;
  }

  /** Answers every waiter with what it has (the simulator is closing). */
  close(): void {
    this.waiters.close();
  }

  /** Records an entry, first telling waiters of the one a full ring drops for it. */
  private push(
    kind: JournalKind,
    seq: number,
    at: number,
    user: string | undefined,
    via: string,
    channel: string | undefined,
    eventId: number | undefined,
    payloadKey: string | undefined,
    num: number,
  ): void {
    if (this.waiters.size > 0 && this.ring.size === this.max) this.waiters.leaving(this.oldestMatches);
    this.ring.push(kind, seq, at, user, via, channel, eventId, payloadKey, num);
  }

  private readonly oldestMatches = (filter: JournalFilter) => this.ring.matches(0, filter);
  private readonly newestMatches = (filter: JournalFilter) => this.ring.matches(this.ring.size - 1, filter);

  /** Tells listeners and waiters of the entry just recorded (the newest in the ring). */
  private added(): void {
    if (this.listeners.size > 0) {
      const record = this.ring.record(this.ring.size - 1);
      for (const listener of this.listeners) listener(record);
    }
    if (this.waiters.size > 0) this.waiters.arrived(this.newestMatches);
  }
}

function bump(counts: Map<string, number>, key: string): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}
