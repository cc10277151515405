import { dayNumber } from './day-number';
import { idOrAbsent } from './event-columns';
import { LARGEST_SLAB_BYTES } from './json-bytes-log';
import { ASSIGNED_ROOM, eventJsonHead } from './stored-json';
import type { PreparedEvent } from './types';

/**
 * Bytes per chunk the staged JSON is written into; a larger event gets a chunk of its own. As
 * large as the store's largest slab for the same reason (json-bytes-log.ts): the chunk gets pages
 * of its own, only those written count, and they go back to the system when the chunk is
 * collected instead of staying in the allocator's heap. A seed body of 25,000 events writes
 * about 9 MB of it.
 */
const CHUNK_BYTES = LARGEST_SLAB_BYTES;
/** The first chunk of a batch: a seed of a few events does not take a large chunk. */
const FIRST_CHUNK_BYTES = 256 << 10;

/**
 * A batch of checked events waiting to be stored all or nothing (a bulk seed): each event's
 * filter fields in typed arrays and its stored JSON up to the fields the store assigns
 * (`{"channel":…,"date":…,…,"payload":{…}`), as UTF-8 in large chunks. Holding a seed this way
 * instead of as a string and an object per event keeps hundreds of thousands of waiting events
 * out of the garbage collector's way, and the store's commit is a copy of bytes.
 */
export class StagedEvents {
  /** Channel names by the number `channel` holds, in order of first use. */
  readonly channelNames: string[] = [];
  private readonly channelNumbers = new Map<string, number>();
  private readonly chunks: Buffer[] = [];
  private fill = CHUNK_BYTES;
  /** Events staged in the newest chunk: each leaves ASSIGNED_ROOM free bytes at its end. */
  private inChunk = 0;
  private count = 0;
  channel = new Uint16Array(0);
  day = new Int32Array(0);
  trackId = new Float64Array(0);
  raceNr = new Float64Array(0);
  startNr = new Float64Array(0);
  private chunkOf = new Uint32Array(0);
  private offset = new Uint32Array(0);
  private bytes = new Uint32Array(0);

  get length(): number {
    return this.count;
  }

  /** Stages one event; `date` must be a checked YYYY-MM-DD date (the day column is its number). */
  add(event: PreparedEvent): void {
    const day = dayNumber(event.date);
    const text = eventJsonHead(event);
    // At most 3 UTF-8 bytes per UTF-16 unit: room is checked without measuring the text first.
    const chunk = this.room(3 * text.length);
    const written = chunk.write(text, this.fill, 'utf8');
    this.record(event.channel, day, event.trackId, event.raceNr, event.startNr, written);
  }

  /**
   * Stages one event whose staged JSON is already written: `source` from `start` to `end` holds
   * exactly what add() would write for it (a seed line in canonical form, but its closing brace).
   */
  addJson(
    channel: string,
    day: number,
    trackId: number | undefined,
    raceNr: number | undefined,
    startNr: number | undefined,
    source: Buffer,
    start: number,
    end: number,
  ): void {
    const chunk = this.room(end - start);
    source.copy(chunk, this.fill, start, end);
    this.record(channel, day, trackId, raceNr, startNr, end - start);
  }

  // A chunk with `bytes` free at `fill`, and a free row.
  private room(bytes: number): Buffer {
    let chunk = this.chunks[this.chunks.length - 1];
    if (chunk === undefined || this.fill + bytes + (this.inChunk + 1) * ASSIGNED_ROOM > chunk.length) {
      const size = this.chunks.length === 0 ? FIRST_CHUNK_BYTES : CHUNK_BYTES;
      chunk = Buffer.allocUnsafeSlow(Math.max(size, bytes + ASSIGNED_ROOM));
      this.chunks.push(chunk);
      this.fill = 0;
      this.inChunk = 0;
    }
    if (this.count === this.channel.length) this.grow();
    return chunk;
  }

  // Counts the event whose JSON was just written at `fill`.
  private record(
    channel: string,
    day: number,
    trackId: number | undefined,
    raceNr: number | undefined,
    startNr: number | undefined,
    bytes: number,
  ): void {
    const at = this.count++;
    this.channel[at] = this.channelNumber(channel);
    this.day[at] = day;
    this.trackId[at] = idOrAbsent(trackId);
    this.raceNr[at] = idOrAbsent(raceNr);
    this.startNr[at] = idOrAbsent(startNr);
    this.chunkOf[at] = this.chunks.length - 1;
    this.offset[at] = this.fill;
    this.bytes[at] = bytes;
    this.fill += bytes;
    this.inChunk++;
  }

  /**
   * Lets go of the chunks once the batch is stored (or dropped), so what a seed borrowed is
   * returned as soon as they are collected; no chunk is kept for a next seed that may never
   * come. The batch is empty after.
   */
  release(): void {
    this.chunks.length = 0;
    this.count = 0;
    this.fill = CHUNK_BYTES;
    this.inChunk = 0;
    this.channelNames.length = 0;
    this.channelNumbers.clear();
  }

  /** Byte length of event i's staged JSON. */
  byteLength(i: number): number {
    return this.bytes[i] as number;
  }

  /** The chunk holding event i's staged JSON and where it starts there. */
  chunk(i: number): Buffer {
    return this.chunks[this.chunkOf[i] as number] as Buffer;
  }

  /** Which chunk holds event i: events of one chunk are consecutive, the first at offset 0. */
  chunkIndex(i: number): number {
    return this.chunkOf[i] as number;
  }

  start(i: number): number {
    return this.offset[i] as number;
  }

  private channelNumber(name: string): number {
    let n = this.channelNumbers.get(name);
    if (n === undefined) {
      n = this.channelNames.length;
      this.channelNames.push(name);
      this.channelNumbers.set(name, n);
    }
    return n;
  }

  private grow(): void {
    const size = Math.max(256, this.channel.length * 2);
    this.channel = grown(this.channel, new Uint16Array(size));
    this.day = grown(this.day, new Int32Array(size));
    this.trackId = grown(this.trackId, new Float64Array(size));
    this.raceNr = grown(this.raceNr, new Float64Array(size));
    this.startNr = grown(this.startNr, new Float64Array(size));
    this.chunkOf = grown(this.chunkOf, new Uint32Array(size));
    this.offset = grown(this.offset, new Uint32Array(size));
    this.bytes = grown(this.bytes, new Uint32Array(size));
  }
}

function grown<T extends Uint16Array | Int32Array | Uint32Array | Float64Array>(from: T, to: T): T {
  to.set(from as never);
  return to;
}
