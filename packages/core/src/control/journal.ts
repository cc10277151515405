import type { Clock, TimerHandle } from '../clock';

export const JOURNAL_SOURCES = ['post', 'inject', 'replay'] as const;
export type JournalSource = (typeof JOURNAL_SOURCES)[number];
export const JOURNAL_TRANSPORTS = ['events', 'filtered-events', 'event-stream', 'listen', 'stomp'] as const;
export type JournalTransport = (typeof JOURNAL_TRANSPORTS)[number];

/** What identifies a message in an entry: the JSON simulator's eventId, the legacy payloadKey. */
export interface MessageRef {
  readonly eventId?: number;
  readonly payloadKey?: string;
}

/** A message the simulator took in (POST /api/message, an injection, the replay). */
export interface ReceivedEntry extends MessageRef {
  readonly seq: number;
  /** ISO time on the simulator's (advanceable) clock. */
  readonly time: string;
  readonly kind: 'received';
  readonly source: JournalSource;
  readonly channel: string;
  readonly durable: boolean;
}

/** A message handed to one user's client. */
export interface DeliveredEntry extends MessageRef {
  readonly seq: number;
  readonly time: string;
  readonly kind: 'delivered';
  readonly user: string;
  readonly transport: JournalTransport;
  readonly channel: string;
  /** The HTTP status of a long poll or page; 101 for a message written to an open WebSocket. */
  readonly status: number;
}

export type JournalEntry = ReceivedEntry | DeliveredEntry;

export type ReceivedInput = Omit<ReceivedEntry, 'seq' | 'time' | 'kind'>;
export type DeliveredInput = Omit<DeliveredEntry, 'seq' | 'time' | 'kind'>;

/** Which entries a reader wants; every field optional. */
export interface JournalFilter {
  readonly user?: string;
  readonly transport?: JournalTransport;
  readonly channel?: string;
  /** Only entries with a larger seq. */
  readonly since?: number;
}

export interface JournalPage {
  readonly entries: JournalEntry[];
  /** The `since` that continues after this page. */
  readonly nextSince: number;
}

interface Waiter {
  readonly filter: JournalFilter;
  readonly count: number;
  readonly done: (page: JournalPage, complete: boolean) => void;
  timer: TimerHandle | undefined;
}

export function matches(entry: JournalEntry, filter: JournalFilter): boolean {
  if (filter.since !== undefined && entry.seq <= filter.since) return false;
  if (filter.channel !== undefined && entry.channel !== filter.channel) return false;
  if (filter.user !== undefined && (entry.kind !== 'delivered' || entry.user !== filter.user)) return false;
  if (
    filter.transport !== undefined &&
    (entry.kind !== 'delivered' || entry.transport !== filter.transport)
  ) {
    return false;
  }
  return true;
}

/**
 * The delivery journal: a bounded ring (oldest dropped first) of what each simulator received
 * and delivered, numbered by `seq` (never reused, not even across a clear, so a reader's
 * `since` stays valid), with waiters that are answered as soon as enough matching entries exist.
 */
export class Journal {
  private ring: JournalEntry[] = [];
  private seq = 0;
  private readonly waiters = new Set<Waiter>();
  private readonly listeners: Array<(entry: JournalEntry) => void> = [];

  constructor(
    private readonly clock: Clock,
    private readonly max: number,
  ) {}

  get size(): number {
    return this.ring.length;
  }

  get capacity(): number {
    return this.max;
  }

  get lastSeq(): number {
    return this.seq;
  }

  received(input: ReceivedInput): void {
    this.add({ seq: ++this.seq, time: this.time(), kind: 'received', ...input });
  }

  delivered(input: DeliveredInput): void {
    this.add({ seq: ++this.seq, time: this.time(), kind: 'delivered', ...input });
  }

  /** Matching entries, oldest first, at most `limit`. */
  list(filter: JournalFilter, limit: number): JournalPage {
    const entries: JournalEntry[] = [];
    for (const entry of this.ring) {
      if (entries.length >= limit) break;
      if (matches(entry, filter)) entries.push(entry);
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
    const waiter: Waiter = { filter, count, done, timer: undefined };
    this.waiters.add(waiter);
    waiter.timer = this.clock.setTimeout(() => {
      if (!this.waiters.delete(waiter)) return;
      done(this.list(filter, count), false);
    }, timeoutMs);
    return () => {
      waiter.timer?.cancel();
      this.waiters.delete(waiter);
    };
  }

  /** Calls `listener` with every entry added from now on (the metrics count them). */
  onEntry(listener: (entry: JournalEntry) => void): void {
    this.listeners.push(listener);
  }

  /** Drops every entry; returns how many. Sequence numbers go on from where they were. */
  clear(): number {
    const cleared = this.ring.length;
    this.ring = [];
    return cleared;
  }

  /** Answers every waiter with what it has (the simulator is closing). */
  close(): void {
    for (const waiter of [...this.waiters]) {
      this.waiters.delete(waiter);
      waiter.timer?.cancel();
      waiter.done(this.list(waiter.filter, waiter.count), false);
    }
  }

  private add(entry: JournalEntry): void {
    this.ring.push(entry);
    if (this.ring.length > this.max) this.ring.shift();
    for (const listener of this.listeners) listener(entry);
    for (const waiter of [...this.waiters]) {
      if (!matches(entry, waiter.filter)) continue;
      const page = this.list(waiter.filter, waiter.count);
      if (page.entries.length < waiter.count) continue;
      this.waiters.delete(waiter);
      waiter.timer?.cancel();
      waiter.done(page, true);
    }
  }

  private time(): string {
    return new Date(this.clock.now()).toISOString();
  }
}
