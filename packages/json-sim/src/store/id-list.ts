/** The largest id a Uint32Array holds. */
const MAX_U32 = 0xffff_ffff;

/**
 * Ascending eventIds, appended at the tail and dropped at the head, in a typed array: an index
 * entry costs 4 bytes (a Uint32Array) and no object the garbage collector walks. Every event is
 * in up to 9 lists, so this is a sixth of what a stored event costs. A list that is handed an id
 * beyond 32 bits (four billion events into a simulator's life) moves to a Float64Array, exact
 * for every safe integer, and stays there.
 */
export class IdList {
  private ids: Uint32Array | Float64Array;
  private head = 0;
  private tail = 0;

  constructor(capacity = 4) {
    this.ids = new Uint32Array(capacity);
  }

  get length(): number {
    return this.tail - this.head;
  }

  push(id: number): void {
    if (this.tail === this.ids.length || (id > MAX_U32 && this.ids instanceof Uint32Array)) this.grow(id);
    this.ids[this.tail++] = id;
  }

  /** Id at logical position i (0 = oldest kept); only for 0 <= i < length. */
  at(i: number): number {
    return this.ids[this.head + i] as number;
  }

  first(): number | undefined {
    return this.tail > this.head ? this.ids[this.head] : undefined;
  }

  last(): number | undefined {
    return this.tail > this.head ? this.ids[this.tail - 1] : undefined;
  }

  shift(): void {
    if (this.tail > this.head) this.head++;
  }

  /** Logical position of the first id greater than `id` (length when there is none). */
  upperBound(id: number): number {
    const ids = this.ids;
    let lo = this.head;
    let hi = this.tail;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((ids[mid] as number) <= id) lo = mid + 1;
      else hi = mid;
    }
    return lo - this.head;
  }

  // Makes room at the tail for `id`: slides the kept ids down when at least half the array is
  // dropped ones, else doubles it, so both appends and drops stay O(1) amortised; widens it to
  // Float64Array for an id a Uint32Array cannot hold.
  private grow(id: number): void {
    const kept = this.tail - this.head;
    const wide = id > MAX_U32 || this.ids instanceof Float64Array;
    if (kept * 2 <= this.ids.length && wide === this.ids instanceof Float64Array) {
      this.ids.copyWithin(0, this.head, this.tail);
    } else {
      const size = kept * 2 <= this.ids.length ? this.ids.length : this.ids.length * 2;
      const next = wide ? new Float64Array(Math.max(4, size)) : new Uint32Array(Math.max(4, size));
      next.set(this.ids.subarray(this.head, this.tail));
      this.ids = next;
    }
    this.head = 0;
    this.tail = kept;
  }
}
