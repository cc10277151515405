import { coreError, type Clock, type EventInput } from '@racedata/core';
import { ChannelIndex, idKey, lowerBound, RACE, START, TRACK } from './channel-index';
import { dayNumber } from './day-number';
import { EventColumns, fromStored, idOrAbsent } from './event-columns';
import { mergePage, scanPage, type RowFilter, type Rows } from './event-page-read';
import { BlockArena } from './block-arena';
import { BLOCK_ENTRIES, type IdList } from './id-list';
import { decimalDigits, JsonBytesLog, slabBytesFor } from './json-bytes-log';
import type { StagedEvents } from './staged-events';
import { eventJson, PER_EVENT_OVERHEAD, prepareEvent, storedEventCost } from './stored-json';
import type { EventFilter, EventPage, PreparedEvent, StoredEvent } from './types';

export interface EventStoreOptions {
  maxEvents: number;
  /** Budget for the events' storedEventCost(); unlimited when not given. */
  maxBytes?: number;
  clock: Clock;
}

const EMPTY: EventPage = Object.freeze({ ids: Object.freeze([]) as readonly number[], hasMore: false });

/**
 * The durable event log: append-only, ascending eventId, bounded (oldest dropped first). An
 * event is its UTF-8 JSON (serialised once, at append, packed into slabs outside the heap the
 * garbage collector walks) and a row of typed-array filter columns; it is indexed by channel,
 * by (channel, date) and by (channel, every combination of trackId / raceNr / startNr), so a
 * filtered read walks only candidates and a filter nothing matches costs one lookup.
 * eventIds in the log are consecutive, so an id is its position: no id is stored per row.
 */
export class EventStore {
  private columns = new EventColumns();
  private bytes: JsonBytesLog;
  private channels = new Map<string, ChannelIndex>();
  /** Where the id lists' full blocks come from; replaced, with the lists, by clear(). */
  private arena = new BlockArena(BLOCK_ENTRIES);
  /** Channel names by the number the columns hold. */
  private channelNames: string[] = [];
  private nextId = 1;
  private lastCreated = 0;
  private held = 0;
  private droppedCount = 0;
  private readonly maxBytes: number;

  constructor(private readonly options: EventStoreOptions) {
    this.maxBytes = options.maxBytes ?? Number.POSITIVE_INFINITY;
    this.bytes = new JsonBytesLog(slabBytesFor(this.maxBytes));
  }

  get size(): number {
    return this.bytes.length;
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

  /** eventId of the oldest event held (lastEventId + 1 when empty). */
  private get firstId(): number {
    return this.nextId - this.bytes.length;
  }

  /**
   * Drops every event (POST /_sim/reset); eventIds restart at 1 unless `continueIds`. Returns how
   * many were dropped. The dropped-count is not changed: these were cleared, not evicted.
   */
  clear(continueIds: boolean): number {
    const cleared = this.bytes.length;
    this.columns = new EventColumns();
    this.bytes = new JsonBytesLog(slabBytesFor(this.maxBytes));
    this.channels = new Map();
    this.arena = new BlockArena(BLOCK_ENTRIES);
    this.channelNames = [];
    this.held = 0;
    if (!continueIds) {
      this.nextId = 1;
      this.lastCreated = 0;
    }
    return cleared;
  }

  /**
   * Stores the event, all or nothing: everything that can throw (serialising a payload too deep
   * or too large, the size check) happens before the first structure changes, so a refused
   * event leaves the log, the indexes and the next eventId as they were. Returns the event as
   * stored (the store itself keeps only its JSON and filter fields).
   */
  append(input: EventInput, at?: number): StoredEvent {
    return this.appendJson(input, at).event;
  }

  /**
   * append(), and the event's stored JSON (JSON.stringify of the event, byte for byte), for a
   * caller that needs that text too: a megabyte payload is then serialised once, not again.
   */
  appendJson(input: EventInput, at?: number): { event: StoredEvent; json: string } {
    const prepared = prepareEvent(input);
    const created = this.createdNow(at);
    const createdAt = new Date(created).toISOString();
    const eventId = this.nextId;
    const json = eventJson(prepared, createdAt, eventId);
    this.checkFits(Buffer.byteLength(json, 'utf8'));
    this.commit(prepared, json, created);
    const event = Object.freeze({
      channel: input.channel,
      date: input.date,
      ...(input.trackId !== undefined && { trackId: input.trackId }),
      ...(input.raceNr !== undefined && { raceNr: input.raceNr }),
      ...(input.startNr !== undefined && { startNr: input.startNr }),
      payload: input.payload,
      created_at: createdAt,
      eventId,
    });
    return { event, json };
  }

  /**
   * Stores staged events in order, all or nothing: every event is checked against the budget
   * before the first is stored. They share one created_at (one clock reading). Returns the
   * eventIds of the first and the last (undefined for none).
   */
  appendStaged(staged: StagedEvents): { firstEventId: number; lastEventId: number } | undefined {
    if (staged.length === 0) return undefined;
    const created = this.createdNow();
    const first = this.nextId;
    // What follows each staged event's JSON: the fields the store assigns, then its eventId.
    const assigned = Buffer.from(`,"created_at":"${new Date(created).toISOString()}","eventId":`, 'latin1');
    for (let i = 0; i < staged.length; i++) {
      const bytes = staged.byteLength(i) + assigned.length + decimalDigits(first + i) + 1;
      if (storedEventCost(bytes) > this.maxBytes) this.checkFits(bytes);
    }
    for (let i = 0; i < staged.length;) {
      // The events of one staged chunk: taken as a slab of the log at once, or copied one by one.
      let end = i + 1;
      while (end < staged.length && staged.chunkIndex(end) === staged.chunkIndex(i)) end++;
      const from = i;
      const adopted = this.bytes.adoptAssigned(
        staged.chunk(i),
        end - i,
        (k) => staged.start(from + k),
        (k) => staged.byteLength(from + k),
        assigned,
        this.nextId,
      );
      for (; i < end; i++) {
        const id = this.nextId;
        if (!adopted)
          this.bytes.pushAssigned(staged.chunk(i), staged.start(i), staged.byteLength(i), assigned, id);
        this.commitRow(
          staged.channelNames[staged.channel[i] as number] as string,
          staged.day[i] as number,
          staged.trackId[i] as number,
          staged.raceNr[i] as number,
          staged.startNr[i] as number,
          staged.byteLength(i) + assigned.length + decimalDigits(id) + 1,
          created,
        );
      }
    }
    return { firstEventId: first, lastEventId: this.nextId - 1 };
  }

  /** True while the store holds the event with this id. */
  holds(eventId: number): boolean {
    return eventId >= this.firstId && eventId < this.nextId;
  }

  /** The channel of a held event. */
  channelOf(eventId: number): string {
    return this.channelNames[this.columns.channel[this.rowOf(eventId)] as number] as string;
  }

  /** A held event as an object (parsed from its stored JSON); undefined when not held. */
  event(eventId: number): StoredEvent | undefined {
    if (!this.holds(eventId)) return undefined;
    return Object.freeze(JSON.parse(this.bytes.text(eventId - this.firstId)) as StoredEvent);
  }

  /** Held events as objects, for callers that need more than the bytes (tests, tools). */
  events(ids: readonly number[]): StoredEvent[] {
    return ids.map((id) => this.event(id)).filter((e): e is StoredEvent => e !== undefined);
  }

  /** The byte length of the held event's stored JSON. */
  jsonByteLength(eventId: number): number {
    return this.bytes.byteLength(eventId - this.firstId);
  }

  /** Bytes joinedJsonTo() writes for these held events: their JSON and a comma between each two. */
  joinedByteLength(ids: readonly number[]): number {
    let size = Math.max(0, ids.length - 1);
    const first = this.firstId;
    for (let i = 0; i < ids.length; i++) size += this.bytes.byteLength((ids[i] as number) - first);
    return size;
  }

  /**
   * Copies the held events' stored JSON into target at `at`, separated by commas, and returns
   * the bytes written: a page is assembled from bytes serialised once at append, one
   * copy per run of events stored one after another.
   */
  joinedJsonTo(ids: readonly number[], target: Uint8Array, at: number): number {
    const first = this.firstId;
    let written = 0;
    for (let i = 0; i < ids.length;) {
      const pos = (ids[i] as number) - first;
      let n = 1;
      while (i + n < ids.length && ids[i + n] === (ids[i] as number) + n) n++;
      n = this.bytes.runLength(pos, n);
      i += n;
      written += this.bytes.copyRun(pos, n, target, at + written, i < ids.length);
    }
    return written;
  }

  /** The eventId of the newest event among the channels, if any. */
  latestId(channels: readonly string[]): number | undefined {
    let best: number | undefined;
    for (const name of channels) {
      const last = this.channels.get(name)?.all.last();
      if (last !== undefined && (best === undefined || last > best)) best = last;
    }
    return best;
  }

  /** The newest event among the channels, if any. */
  latest(channels: readonly string[]): StoredEvent | undefined {
    const id = this.latestId(channels);
    return id === undefined ? undefined : this.event(id);
  }

  /** Events after `afterId` in the channels (optionally within dates and exact ids), oldest first. */
  query(filter: EventFilter): EventPage {
    const f: RowFilter = {
      afterId: filter.afterId,
      limit: filter.limit,
      fromDay: filter.startDate === undefined ? -Infinity : dayNumber(filter.startDate),
      toDay: filter.endDate === undefined ? Infinity : dayNumber(filter.endDate),
      trackId: filter.trackId,
      raceNr: filter.raceNr,
      startNr: filter.startNr,
    };
    if (this.bytes.length === 0 || f.fromDay > f.toDay || f.afterId >= this.lastEventId) return EMPTY;
    const mask =
      (f.trackId !== undefined ? TRACK : 0) |
      (f.raceNr !== undefined ? RACE : 0) |
      (f.startNr !== undefined ? START : 0);
    const key = mask === 0 ? 0 : idKey(mask, f.trackId ?? 0, f.raceNr ?? 0, f.startNr ?? 0);
    const dated = filter.startDate !== undefined || filter.endDate !== undefined;
    const rows: Rows = { columns: this.columns, base: this.columns.head - this.firstId };
    const sources: IdList[] = [];
    let wanted: Uint8Array | undefined;
    let held = 0;
    for (const name of new Set(filter.channels)) {
      const index = this.channels.get(name);
      if (!index) continue;
      const list = mask === 0 ? index.all : index.byIds.get(key);
      // No event of the channel has this combination of ids.
      if (list === undefined) continue;
      if (!dated || !pushBuckets(index, list, f, sources)) sources.push(list);
      held += list.length;
      (wanted ??= new Uint8Array(this.channelNames.length))[index.id] = 1;
    }
    if (sources.length === 0) return EMPTY;
    // Channels holding most of the log (a broad subscription paging /events) are read by walking
    // the log's rows and skipping the rest: about limit / share steps instead of a merge.
    if (sources.length > 1 && mask === 0 && !dated && held * 2 >= this.bytes.length) {
      const scanned = scanPage(rows, this.firstId, this.lastEventId, wanted as Uint8Array, f);
      if (scanned.page) return scanned.page;
      return mergePage(sources, rows, { ...f, afterId: scanned.stoppedAfter }, scanned.found);
    }
    return mergePage(sources, rows, f);
  }

  /** `at` (a race day's history) or now; never before the last event's, matching the eventId order. */
  private createdNow(at?: number): number {
    // created_at never goes backwards even if the wall clock does, matching the eventId order.
    return Math.max(at ?? this.options.clock.now(), this.lastCreated);
  }

  private checkFits(byteLength: number): void {
    const cost = storedEventCost(byteLength);
    if (cost > this.maxBytes) {
      throw coreError(
        'EVENT_TOO_LARGE',
        `the event takes ${cost} bytes of store (its ${byteLength} bytes of JSON plus ${PER_EVENT_OVERHEAD}); EVENT_STORE_MAX_BYTES is ${this.maxBytes}`,
      );
    }
  }

  // Only what cannot fail for want of anything but memory is left: the event was checked.
  private commit(p: PreparedEvent, text: string, created: number): void {
    const byteLength = Buffer.byteLength(text, 'utf8');
    this.bytes.push(text, byteLength);
    this.commitRow(
      p.channel,
      dayNumber(p.date),
      idOrAbsent(p.trackId),
      idOrAbsent(p.raceNr),
      idOrAbsent(p.startNr),
      byteLength,
      created,
    );
  }

  // The event's bytes were just pushed: its row, its index entries and the budget follow.
  private commitRow(
    channel: string,
    day: number,
    trackId: number,
    raceNr: number,
    startNr: number,
    byteLength: number,
    created: number,
  ): void {
    const index = this.indexFor(channel);
    this.columns.push(index.id, day, trackId, raceNr, startNr);
    index.add(this.nextId, day, trackId, raceNr, startNr);
    this.nextId++;
    this.lastCreated = created;
    this.held += storedEventCost(byteLength);
    // The new event alone always fits (checked), so this never drops it. Rows, not texts, are
    // counted: a staged chunk taken whole puts its texts in the log before their rows.
    while (this.columns.length > this.options.maxEvents || this.held > this.maxBytes) this.evictOldest();
  }

  private rowOf(eventId: number): number {
    return this.columns.head + eventId - this.firstId;
  }

  private indexFor(channel: string): ChannelIndex {
    let index = this.channels.get(channel);
    if (!index) {
      index = new ChannelIndex(this.channelNames.length, this.arena);
      this.channelNames.push(channel);
      this.channels.set(channel, index);
    }
    return index;
  }

  // The globally oldest event is also the oldest of each list it is in.
  private evictOldest(): void {
    if (this.bytes.length === 0) return;
    const c = this.columns;
    const row = c.head;
    const index = this.channels.get(this.channelNames[c.channel[row] as number] as string) as ChannelIndex;
    index.dropOldest(
      c.day[row] as number,
      fromStored(c.trackId[row] as number),
      fromStored(c.raceNr[row] as number),
      fromStored(c.startNr[row] as number),
    );
    this.held -= storedEventCost(this.bytes.byteLength(0));
    this.bytes.shift();
    c.shift();
    this.droppedCount++;
  }
}

/**
 * For a dated read of one channel: pushes the channel's day buckets within the range instead of
 * `list` (its events with the wanted ids, or all of them) when they hold fewer candidates after
 * afterId; false when `list` (checked day by day in the columns) is the cheaper walk.
 */
function pushBuckets(index: ChannelIndex, list: IdList, f: RowFilter, sources: IdList[]): boolean {
  const budget = list.length - list.upperBound(f.afterId);
  const from = f.fromDay === -Infinity ? 0 : lowerBound(index.days, f.fromDay);
  let to = from;
  let candidates = 0;
  for (; to < index.days.length && (index.days[to] as number) <= f.toDay; to++) {
    const bucket = index.byDay.get(index.days[to] as number) as IdList;
    candidates += bucket.length - bucket.upperBound(f.afterId);
    if (candidates >= budget) return false;
  }
  // Each bucket is a heap entry: across many of them, a list a quarter full is the better walk.
  if (to - from > 64 && candidates * 4 >= budget) return false;
  for (let i = from; i < to; i++) sources.push(index.byDay.get(index.days[i] as number) as IdList);
  return true;
}
