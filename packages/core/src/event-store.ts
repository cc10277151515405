import { AppendLog } from './append-log';
import type { Clock } from './clock';

/** What a publisher supplies for a durable event (interface 2.5 without the server fields). */
export interface EventInput {
  readonly channel: string;
  readonly date: string;
  readonly trackId?: number;
  readonly raceNr?: number;
  readonly startNr?: number;
  readonly payload: Readonly<Record<string, unknown>>;
}

export interface StoredEvent extends EventInput {
  readonly eventId: number;
  readonly created_at: string;
}

export interface EventPage {
  readonly events: StoredEvent[];
  readonly hasMore: boolean;
}

export interface EventFilter {
  /** Channels to consider (already cut to the caller's subscription). */
  readonly channels: readonly string[];
  readonly afterId: number;
  readonly limit: number;
  readonly startDate?: string | undefined;
  readonly endDate?: string | undefined;
  readonly trackId?: number | undefined;
  readonly raceNr?: number | undefined;
  readonly startNr?: number | undefined;
}

interface ChannelIndex {
  readonly all: AppendLog<StoredEvent>;
  /** Sorted date keys, so a date range selects its buckets without touching other days. */
  readonly dates: string[];
  readonly byDate: Map<string, AppendLog<StoredEvent>>;
}

const byEventId = (e: StoredEvent) => e.eventId;

export interface EventStoreOptions {
  maxEvents: number;
  clock: Clock;
}

/**
 * The durable event log: append-only, ascending eventId, bounded (oldest dropped first), and
 * indexed by channel and by (channel, date) so filtered reads never scan the whole log.
 */
export class EventStore {
  private readonly global = new AppendLog<StoredEvent>(byEventId);
  /**
   * The JSON text of each event in `global`, at the same positions: serialised once at append,
   * so reads join cached text instead of re-serialising every page. Only ever read by position,
   * so its key function is a placeholder.
   */
  private readonly texts = new AppendLog<string>(() => 0);
  /** The UTF-8 byte length of each text, at the same positions. */
  private readonly sizes = new AppendLog<number>(() => 0);
  private readonly channels = new Map<string, ChannelIndex>();
  private nextId = 1;
  private lastCreated = 0;

  constructor(private readonly options: EventStoreOptions) {}

  get size(): number {
    return this.global.length;
  }

  get lastEventId(): number {
    return this.nextId - 1;
  }

  append(input: EventInput): StoredEvent {
    // created_at never goes backwards even if the wall clock does, matching the eventId order.
    const created = Math.max(this.options.clock.now(), this.lastCreated);
    this.lastCreated = created;
    const event: StoredEvent = Object.freeze({
      channel: input.channel,
      date: input.date,
      ...(input.trackId !== undefined && { trackId: input.trackId }),
      ...(input.raceNr !== undefined && { raceNr: input.raceNr }),
      ...(input.startNr !== undefined && { startNr: input.startNr }),
      payload: input.payload,
      created_at: new Date(created).toISOString(),
      eventId: this.nextId++,
    });
    this.global.push(event);
    const text = JSON.stringify(event);
    this.texts.push(text);
    // Measuring the text also flattens it: JSON.stringify returns a rope (a tree of parts, ~140
    // bytes of bookkeeping for a 400-byte event) that the garbage collector then drops.
    this.sizes.push(Buffer.byteLength(text, 'utf8'));
    const index = this.indexFor(event.channel);
    index.all.push(event);
    let bucket = index.byDate.get(event.date);
    if (!bucket) {
      bucket = new AppendLog<StoredEvent>(byEventId);
      index.byDate.set(event.date, bucket);
      insertSorted(index.dates, event.date);
    }
    bucket.push(event);
    while (this.global.length > this.options.maxEvents) this.evictOldest();
    return event;
  }

  /**
   * The event's JSON text, exactly `JSON.stringify(event)` as it was when stored; cached for the
   * events this store holds, computed for any other.
   */
  json(event: StoredEvent): string {
    const at = this.positionOf(event);
    return at < 0 ? JSON.stringify(event) : (this.texts.at(at) as string);
  }

  /**
   * Puts each event's JSON text (as json() gives it) into `texts` at the same index, and returns
   * their total UTF-8 byte length, known without encoding anything.
   */
  jsonTexts(events: readonly StoredEvent[], texts: string[]): number {
    let bytes = 0;
    for (let i = 0; i < events.length; i++) {
      const event = events[i] as StoredEvent;
      const at = this.positionOf(event);
      if (at < 0) {
        const text = JSON.stringify(event);
        texts[i] = text;
        bytes += Buffer.byteLength(text, 'utf8');
      } else {
        texts[i] = this.texts.at(at) as string;
        bytes += this.sizes.at(at) as number;
      }
    }
    return bytes;
  }

  /** The event with the highest eventId among the channels, if any. */
  latest(channels: readonly string[]): StoredEvent | undefined {
    let best: StoredEvent | undefined;
    for (const name of channels) {
      const last = this.channels.get(name)?.all.last();
      if (last && (!best || last.eventId > best.eventId)) best = last;
    }
    return best;
  }

  /** Events after `afterId` in the channels (optionally within dates and exact ids), oldest first. */
  query(filter: EventFilter): EventPage {
    const sources: AppendLog<StoredEvent>[] = [];
    for (const name of new Set(filter.channels)) {
      const index = this.channels.get(name);
      if (!index) continue;
      if (filter.startDate === undefined && filter.endDate === undefined) {
        sources.push(index.all);
        continue;
      }
      const from = filter.startDate === undefined ? 0 : lowerBound(index.dates, filter.startDate);
      for (let i = from; i < index.dates.length; i++) {
        const date = index.dates[i] as string;
        if (filter.endDate !== undefined && date > filter.endDate) break;
        sources.push(index.byDate.get(date) as AppendLog<StoredEvent>);
      }
    }
    return mergePage(sources, filter);
  }

  /** The event's position in the global log, or -1 when this store does not hold it. */
  private positionOf(event: StoredEvent): number {
    const first = this.global.first();
    if (first === undefined) return -1;
    // eventIds in the global log are consecutive, so the id gives the position.
    const at = event.eventId - first.eventId;
    return at >= 0 && this.global.at(at) === event ? at : -1;
  }

  private indexFor(channel: string): ChannelIndex {
    let index = this.channels.get(channel);
    if (!index) {
      index = { all: new AppendLog(byEventId), dates: [], byDate: new Map() };
      this.channels.set(channel, index);
    }
    return index;
  }

  // The globally oldest event is also the oldest of its channel and of its date bucket.
  private evictOldest(): void {
    const event = this.global.shift();
    this.texts.shift();
    this.sizes.shift();
    if (!event) return;
    const index = this.channels.get(event.channel);
    if (!index) return;
    index.all.shift();
    const bucket = index.byDate.get(event.date);
    bucket?.shift();
    if (bucket && bucket.length === 0) {
      index.byDate.delete(event.date);
      index.dates.splice(lowerBound(index.dates, event.date), 1);
    }
  }
}

interface Cursor {
  readonly log: AppendLog<StoredEvent>;
  pos: number;
  event: StoredEvent;
  id: number;
}

function matches(event: StoredEvent, filter: EventFilter): boolean {
  return (
    (filter.trackId === undefined || event.trackId === filter.trackId) &&
    (filter.raceNr === undefined || event.raceNr === filter.raceNr) &&
    (filter.startNr === undefined || event.startNr === filter.startNr)
  );
}

/** Restores the heap order below `i` (a min-heap of cursors by the eventId they point at). */
function siftDown(heap: Cursor[], i: number): void {
  const n = heap.length;
  const item = heap[i] as Cursor;
  for (;;) {
    const l = 2 * i + 1;
    if (l >= n) break;
    const r = l + 1;
    const child = r < n && (heap[r] as Cursor).id < (heap[l] as Cursor).id ? r : l;
    if ((heap[child] as Cursor).id >= item.id) break;
    heap[i] = heap[child] as Cursor;
    i = child;
  }
  heap[i] = item;
}

/**
 * k-way merge by eventId, stopping at limit + 1 matches to learn hasMore without a count. One
 * cursor per source, advanced in place at the top of the heap: nothing is allocated per event.
 */
function mergePage(sources: AppendLog<StoredEvent>[], filter: EventFilter): EventPage {
  const heap: Cursor[] = [];
  for (const log of sources) {
    const pos = log.upperBound(filter.afterId);
    const event = log.at(pos);
    if (event) heap.push({ log, pos, event, id: event.eventId });
  }
  for (let i = (heap.length >> 1) - 1; i >= 0; i--) siftDown(heap, i);
  const events: StoredEvent[] = [];
  let hasMore = false;
  while (heap.length > 0) {
    const top = heap[0] as Cursor;
    if (matches(top.event, filter)) {
      if (events.length === filter.limit) {
        hasMore = true;
        break;
      }
      events.push(top.event);
    }
    const next = top.log.at(++top.pos);
    if (next) {
      top.event = next;
      top.id = next.eventId;
    } else {
      const last = heap.pop() as Cursor;
      if (heap.length === 0) break;
      heap[0] = last;
    }
    siftDown(heap, 0);
  }
  return { events, hasMore };
}

function lowerBound(sorted: readonly string[], value: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as string) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function insertSorted(sorted: string[], value: string): void {
  sorted.splice(lowerBound(sorted, value), 0, value);
}
