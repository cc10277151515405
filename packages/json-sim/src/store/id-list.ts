/**
 * Ascending eventIds, appended at the tail and dropped at the head, in a Float64Array (exact for
 * every safe integer): an index entry costs 8 bytes and no object the garbage collector walks.
 */
export class IdList {
  private ids: Float64Array;
  private head = 0;
  private tail = 0;

  constructor(capacity = 4) {
    this.ids = new Float64Array(capacity);
  }

  get length(): number {
    return this.tail - this.head;
  }

  push(id: number): void {
    if (this.tail === this.ids.length) this.grow();
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

  // Makes room at the tail: slides the kept ids down when at least half the array is dropped
  // ones, else doubles it, so both appends and drops stay O(1) amortised.
  private grow(): void {
    const kept = this.tail - this.head;
    if (kept * 2 <= this.ids.length) {
      this.ids.copyWithin(0, this.head, this.tail);
    } else {
      const next = new Float64Array(Math.max(4, this.ids.length * 2));
      next.set(this.ids.subarray(this.head, this.tail));
      this.ids = next;
    }
    this.head = 0;
    this.tail = kept;
  }
}
