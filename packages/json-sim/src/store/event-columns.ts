/** Marks an optional id (trackId, raceNr, startNr) the event does not have; real ones are >= 0. */
export const ABSENT = -1;

/** An optional id as a column holds it: only a number is an id, so a null never matches a filter. */
export const idOrAbsent = (n: number | undefined): number => (typeof n === 'number' ? n : ABSENT);

/**
 * The filter fields of the stored events, one typed array per field, by position in the log
 * (0 = oldest kept): what a filtered read checks, held as numbers outside the object heap. The
 * event itself is its JSON bytes (JsonBytesLog); nothing else is kept per event.
 */
export class EventColumns {
  channel = new Uint16Array(1024);
  day = new Int32Array(1024);
  // Ids are 32-bit while every one fits (4 bytes a field), widened to exact Float64 at the
  // first that does not: an id may be any safe integer.
  trackId: Int32Array | Float64Array = new Int32Array(1024);
  raceNr: Int32Array | Float64Array = new Int32Array(1024);
  startNr: Int32Array | Float64Array = new Int32Array(1024);
  /** Index in the arrays of position 0. */
  head = 0;
  private tail = 0;
  private wide = false;

  get length(): number {
    return this.tail - this.head;
  }

  push(channel: number, day: number, trackId: number, raceNr: number, startNr: number): void {
    if (this.tail === this.channel.length) this.grow();
    if (!this.wide && (trackId > INT32_MAX || raceNr > INT32_MAX || startNr > INT32_MAX)) this.widen();
    const at = this.tail++;
    this.channel[at] = channel;
    this.day[at] = day;
    this.trackId[at] = trackId;
    this.raceNr[at] = raceNr;
    this.startNr[at] = startNr;
  }

  shift(): void {
    if (this.tail > this.head) this.head++;
  }

  // Slides the kept rows down when half the arrays are dropped rows, else doubles them.
  private grow(): void {
    const kept = this.tail - this.head;
    const size = kept * 2 <= this.channel.length ? this.channel.length : this.channel.length * 2;
    const { head, tail } = this;
    this.channel = moved(this.channel, size, head, tail, (n) => new Uint16Array(n));
    this.day = moved(this.day, size, head, tail, (n) => new Int32Array(n));
    const idArray = (n: number) => (this.wide ? new Float64Array(n) : new Int32Array(n));
    this.trackId = moved(this.trackId, size, head, tail, idArray);
    this.raceNr = moved(this.raceNr, size, head, tail, idArray);
    this.startNr = moved(this.startNr, size, head, tail, idArray);
    this.head = 0;
    this.tail = kept;
  }

  private widen(): void {
    this.wide = true;
    this.trackId = Float64Array.from(this.trackId);
    this.raceNr = Float64Array.from(this.raceNr);
    this.startNr = Float64Array.from(this.startNr);
  }
}

const INT32_MAX = 0x7fffffff;

function moved<T extends Uint16Array | Int32Array | Float64Array>(
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
