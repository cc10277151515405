/** Marks an optional id (trackId, raceNr, startNr) the event does not have; real ones are >= 0. */
export const ABSENT = -1;

/** The largest id an Int32Array column holds. */
const MAX_I32 = 0x7fff_ffff;

type IdColumn = Int32Array | Float64Array;

/**
 * The fields of the stored events besides their payloads, one typed array per field, by position
 * in the log (0 = oldest kept): what a filtered read checks and what a page writes around each
 * payload, held as numbers outside the object heap (27 bytes a row).
 *
 * The ids are Int32Arrays (every usual id fits); the first id beyond 31 bits moves all three to
 * Float64Arrays, exact for every safe integer, until the store is cleared.
 */
export class EventColumns {
  channel = new Uint16Array(1024);
  day = new Int32Array(1024);
  trackId: IdColumn = new Int32Array(1024);
  raceNr: IdColumn = new Int32Array(1024);
  startNr: IdColumn = new Int32Array(1024);
  /** created_at as epoch milliseconds. */
  created = new Float64Array(1024);
  /** 1 when the event's stored bytes hold its envelope head too (see EnvelopeWriter), else 0. */
  headStored = new Uint8Array(1024);
  /** Index in the arrays of position 0. */
  head = 0;
  private tail = 0;

  get length(): number {
    return this.tail - this.head;
  }

  push(
    channel: number,
    day: number,
    trackId: number,
    raceNr: number,
    startNr: number,
    created: number,
    headStored: boolean,
  ): void {
    if (this.tail === this.channel.length) this.grow(this.channel.length * 2);
    if ((trackId > MAX_I32 || raceNr > MAX_I32 || startNr > MAX_I32) && this.trackId instanceof Int32Array) {
      this.widen();
    }
    const at = this.tail++;
    this.channel[at] = channel;
    this.day[at] = day;
    this.trackId[at] = trackId;
    this.raceNr[at] = raceNr;
    this.startNr[at] = startNr;
    this.created[at] = created;
    this.headStored[at] = headStored ? 1 : 0;
  }

  shift(): void {
    if (this.tail > this.head) this.head++;
  }

  // Slides the kept rows down when half the arrays are dropped rows, else grows them to `size`.
  private grow(size: number): void {
    const kept = this.tail - this.head;
    if (kept * 2 <= this.channel.length) size = this.channel.length;
    const { head, tail } = this;
    const wide = this.trackId instanceof Float64Array;
    const ids = (n: number): IdColumn => (wide ? new Float64Array(n) : new Int32Array(n));
    this.channel = moved(this.channel, size, head, tail, (n) => new Uint16Array(n));
    this.day = moved(this.day, size, head, tail, (n) => new Int32Array(n));
    this.trackId = moved(this.trackId, size, head, tail, ids);
    this.raceNr = moved(this.raceNr, size, head, tail, ids);
    this.startNr = moved(this.startNr, size, head, tail, ids);
    this.created = moved(this.created, size, head, tail, (n) => new Float64Array(n));
    this.headStored = moved(this.headStored, size, head, tail, (n) => new Uint8Array(n));
    this.head = 0;
    this.tail = kept;
  }

  private widen(): void {
    const wider = (from: IdColumn) => Float64Array.from(from);
    this.trackId = wider(this.trackId);
    this.raceNr = wider(this.raceNr);
    this.startNr = wider(this.startNr);
  }
}

type Column = Uint8Array | Uint16Array | Int32Array | Float64Array;

function moved<T extends Column>(
  from: T,
  size: number,
  head: number,
  tail: number,
  make: (size: number) => T,
): T {
  if (size === from.length) {
    from.copyWithin(0, head, tail);
    return from;
  }
  const to = make(size);
  to.set(from.subarray(head, tail) as never);
  return to;
}
