/** Marks an optional id (trackId, raceNr, startNr) the event does not have; real ones are >= 0. */
export const ABSENT = -1;

/** An optional id as a column holds it: only a number is an id, so a null never matches a filter. */
export const idOrAbsent = (n: number | undefined): number => (typeof n === 'number' ? n : ABSENT);

/** An id column: each holds id + 1 (0 for ABSENT) in the narrowest array its values fit. */
export type IdColumn = Uint8Array | Uint16Array | Uint32Array | Float64Array;

/** The column's value for an id (ABSENT or >= 0): what a filter compares it with. */
export const stored = (id: number): number => id + 1;

/** Back from a column's value to the id (ABSENT for 0). */
export const fromStored = (value: number): number => value - 1;

/**
 * The filter fields of the stored events, one typed array per field, by position in the log
 * (0 = oldest kept): what a filtered read checks, held as numbers outside the object heap. The
 * event itself is its JSON bytes (JsonBytesLog); nothing else is kept per event.
 *
 * Ids start as narrow as the usual ones allow (trackId in 2 bytes, raceNr and startNr in 1) and
 * a column is widened, to 4 bytes and then to exact Float64, at the first value that does not
 * fit: 10 bytes a row instead of 18 at a million events, while an id may still be any safe
 * integer. Each holds id + 1 so that 0 can stand for an absent id in an unsigned array.
 */
export class EventColumns {
  channel = new Uint16Array(1024);
  day = new Int32Array(1024);
  trackId: IdColumn = new Uint16Array(1024);
  raceNr: IdColumn = new Uint8Array(1024);
  startNr: IdColumn = new Uint8Array(1024);
  /** Index in the arrays of position 0. */
  head = 0;
  private tail = 0;

  get length(): number {
    return this.tail - this.head;
  }

  push(channel: number, day: number, trackId: number, raceNr: number, startNr: number): void {
    if (this.tail === this.channel.length) this.grow();
    const [t, r, s] = [stored(trackId), stored(raceNr), stored(startNr)];
    if (t > maxOf(this.trackId)) this.trackId = widened(this.trackId, t);
    if (r > maxOf(this.raceNr)) this.raceNr = widened(this.raceNr, r);
    if (s > maxOf(this.startNr)) this.startNr = widened(this.startNr, s);
    const at = this.tail++;
    this.channel[at] = channel;
    this.day[at] = day;
    this.trackId[at] = t;
    this.raceNr[at] = r;
    this.startNr[at] = s;
  }

  shift(): void {
    if (this.tail > this.head) this.head++;
  }

  // Slides the kept rows down when half the arrays are dropped rows, else doubles them.
  private grow(): void {
    const kept = this.tail - this.head;
    const size = kept * 2 <= this.channel.length ? this.channel.length : this.channel.length * 2;
    const { head, tail } = this;
    this.channel = moved(this.channel, size, head, tail);
    this.day = moved(this.day, size, head, tail);
    this.trackId = moved(this.trackId, size, head, tail);
    this.raceNr = moved(this.raceNr, size, head, tail);
    this.startNr = moved(this.startNr, size, head, tail);
    this.head = 0;
    this.tail = kept;
  }
}

/** The largest value a column of this array type holds exactly. */
function maxOf(column: IdColumn): number {
  if (column instanceof Float64Array) return Infinity;
  return 2 ** (8 * column.BYTES_PER_ELEMENT) - 1;
}

/** The column copied into the narrowest wider array that holds `value`. */
function widened(column: IdColumn, value: number): IdColumn {
  const wider = value <= 0xffff ? Uint16Array : value <= 0xffffffff ? Uint32Array : Float64Array;
  return wider.from(column);
}

function moved<T extends Uint16Array | Int32Array | IdColumn>(
  from: T,
  size: number,
  head: number,
  tail: number,
): T {
  if (size === from.length) {
    from.copyWithin(0, head, tail);
    return from;
  }
  const to = new (from.constructor as new (n: number) => T)(size);
  to.set(from.subarray(head, tail) as never);
  return to;
}
