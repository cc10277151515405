import { coreError, type Clock, type EventInput } from '@racedata/core';
import { AppendLog } from './append-log';
import { mergePage, scanPage } from './event-page-read';
import { JsonBytesLog } from './json-bytes-log';
import type { EventFilter, EventPage, StoredEvent } from './types';

interface ChannelIndex {
  readonly all: AppendLog<StoredEvent>;
  /** Sorted date keys, so a date range selects its buckets without touching other days. */
  readonly dates: string[];
  readonly byDate: Map<string, AppendLog<StoredEvent>>;
}

const byEventId = (e: StoredEvent) => e.eventId;

/**
 * What one stored event is counted as against `maxBytes`: its UTF-8 JSON twice (the cached bytes,
 * and the parsed payload object the event keeps, which JSON-decoded data makes at least about as
 * large as its text) plus the event object and its index entries. Calibrated on the benchmark's
 * 1,000,000 start-list events: about 1,050 bytes of RSS each for 440 bytes of JSON.
 */
export function storedEventCost(jsonBytes: number): number {
  return 2 * jsonBytes + PER_EVENT_OVERHEAD;
}
const PER_EVENT_OVERHEAD = 200;

export interface EventStoreOptions {
  maxEvents: number;
  /** Budget for the events' storedEventCost(); unlimited when not given. */
  maxBytes?: number;
  clock: Clock;
}

/**
 * The durable event log: append-only, ascending eventId, bounded (oldest dropped first), and
 * indexed by channel and by (channel, date) so filtered reads never scan the whole log.
 */
export class EventStore {
  private global = new AppendLog<StoredEvent>(byEventId);
  /**
   * The UTF-8 JSON of each event in `global`, at the same positions: serialised once at append,
   * so reads copy cached bytes instead of re-serialising every page, packed outside the
   * JavaScript heap the garbage collector walks.
   */
  private bytes = new JsonBytesLog();
  private readonly channels = new Map<string, ChannelIndex>();
  private nextId = 1;
  private lastCreated = 0;
  private held = 0;
  private droppedCount = 0;
  private readonly maxBytes: number;

  constructor(private readonly options: EventStoreOptions) {
    this.maxBytes = options.maxBytes ?? Number.POSITIVE_INFINITY;
  }

  get size(): number {
    return this.global.length;
  }

  /** The stored events' storedEventCost() summed: what counts against `maxBytes`. */
  get bytesHeld(): number {
    return this.held;
  }

  /** Events dropped to stay within `maxEvents` / `maxBytes` since the store was made. */
  get dropped(): number {
    return this.droppedCount;
  }

  get lastEventId(): number {
    return this.nextId - 1;
  }

  /**
   * Drops every event (POST /_sim/reset); eventIds restart at 1 unless `continueIds`. Returns how
   * many were dropped. The dropped-count is not changed: these were cleared, not evicted.
   */
  clear(continueIds: boolean): number {
    const cleared = this.global.length;
    this.global = new AppendLog<StoredEvent>(byEventId);
    this.bytes = new JsonBytesLog();
    this.channels.clear();
    this.held = 0;
    if (!continueIds) {
      this.nextId = 1;
      this.lastCreated = 0;
    }
    return cleared;
  }

  /**
   * Stores the event, all or nothing: everything that can throw (serialising a payload too deep
   * or too large, the size check, allocating its bytes) happens before the first structure
   * changes, so a refused event leaves the log, the indexes and the next eventId as they were.
   */
  append(input: EventInput): StoredEvent {
    // created_at never goes backwards even if the wall clock does, matching the eventId order.
    const created = Math.max(this.options.clock.now(), this.lastCreated);
    const event: StoredEvent = Object.freeze({
      channel: input.channel,
      date: input.date,
      ...(input.trackId !== undefined && { trackId: input.trackId }),
      ...(input.raceNr !== undefined && { raceNr: input.raceNr }),
      ...(input.startNr !== undefined && { startNr: input.startNr }),
      payload: input.payload,
      created_at: new Date(created).toISOString(),
      eventId: this.nextId,
    });
    const text = JSON.stringify(event);
    const byteLength = Buffer.byteLength(text, 'utf8');
    const cost = storedEventCost(byteLength);
    if (cost > this.maxBytes) {
      throw coreError(
        'EVENT_TOO_LARGE',
        `the event takes ${cost} bytes of store (twice its ${byteLength} bytes of JSON plus ${PER_EVENT_OVERHEAD}); EVENT_STORE_MAX_BYTES is ${this.maxBytes}`,
      );
    }
    // The last step that can fail (it allocates); nothing else has changed yet.
    this.bytes.push(text, byteLength);
    this.nextId++;
    this.lastCreated = created;
    this.held += cost;
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
    // The new event alone always fits (checked above), so this never drops it.
    while (this.global.length > this.options.maxEvents || this.held > this.maxBytes) this.evictOldest();
    return event;
  }

  /**
   * The length in bytes of the event's cached UTF-8 JSON, or -1 when this store no longer holds
   * the event (the caller then serialises it itself).
   */
  jsonByteLength(event: StoredEvent): number {
    const at = this.positionOf(event);
    return at < 0 ? -1 : this.bytes.byteLength(at);
  }

  /**
   * Copies the event's cached UTF-8 JSON into `target` at `offset` and returns the bytes
   * written: a page is assembled from bytes serialised once at append, not re-serialised per
   * request. Only for an event jsonByteLength() found held.
   */
  copyJsonTo(event: StoredEvent, target: Buffer, offset: number): number {
    return this.bytes.copyTo(this.positionOf(event), target, offset);
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
    const names = new Set(filter.channels);
    const sources: AppendLog<StoredEvent>[] = [];
    let held = 0;
    for (const name of names) {
      const index = this.channels.get(name);
      if (!index) continue;
      if (filter.startDate === undefined && filter.endDate === undefined) {
        sources.push(index.all);
        held += index.all.length;
        continue;
      }
      const from = filter.startDate === undefined ? 0 : lowerBound(index.dates, filter.startDate);
      for (let i = from; i < index.dates.length; i++) {
        const date = index.dates[i] as string;
        if (filter.endDate !== undefined && date > filter.endDate) break;
        sources.push(index.byDate.get(date) as AppendLog<StoredEvent>);
      }
    }
    // Channels holding most of the log (a broad subscription paging /events) are read by walking
    // the global log and skipping the rest: about limit / share steps instead of a merge.
    if (sources.length > 1 && held * 2 >= this.global.length) {
      const scanned = scanPage(this.global, names, filter);
      if (scanned.page) return scanned.page;
      return mergePage(sources, { ...filter, afterId: scanned.stoppedAfter }, scanned.found);
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
    if (this.bytes.length > 0) this.held -= storedEventCost(this.bytes.byteLength(0));
    const event = this.global.shift();
    this.bytes.shift();
    if (!event) return;
    this.droppedCount++;
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
