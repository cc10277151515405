import { AppendLog } from './append-log';
import type { Clock } from './clock';
import { MinHeap } from './min-heap';

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
  log: AppendLog<StoredEvent>;
  pos: number;
  event: StoredEvent;
}

function matches(event: StoredEvent, filter: EventFilter): boolean {
  return (
    (filter.trackId === undefined || event.trackId === filter.trackId) &&
    (filter.raceNr === undefined || event.raceNr === filter.raceNr) &&
    (filter.startNr === undefined || event.startNr === filter.startNr)
  );
}

// k-way merge by eventId, stopping at limit + 1 matches to learn hasMore without a count.
function mergePage(sources: AppendLog<StoredEvent>[], filter: EventFilter): EventPage {
  const heap = new MinHeap<Cursor>((a, b) => a.event.eventId < b.event.eventId);
  for (const log of sources) {
    const pos = log.upperBound(filter.afterId);
    const event = log.at(pos);
    if (event) heap.push({ log, pos, event });
  }
  const events: StoredEvent[] = [];
  let hasMore = false;
  while (heap.size > 0) {
    const cursor = heap.pop() as Cursor;
    if (matches(cursor.event, filter)) {
      if (events.length === filter.limit) {
        hasMore = true;
        break;
      }
      events.push(cursor.event);
    }
    const next = cursor.log.at(cursor.pos + 1);
    if (next) heap.push({ log: cursor.log, pos: cursor.pos + 1, event: next });
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
