/** Largest offset from the base a Uint32Array entry holds. */
const MAX_OFFSET = 0xffffffff;

/**
 * Ascending eventIds, appended at the tail and dropped at the head, in a typed array: no object
 * per entry for the garbage collector to walk. The store's ids are consecutive and it holds a
 * bounded number of them, so the ids a list holds at once lie within a few million of each
 * other: each is kept as its offset from a base in a Uint32Array, 4 bytes an entry (an index
 * entry is made up to 9 times per event). A list whose ids ever spread wider than 32 bits is
 * widened to exact Float64 ids instead.
 */
export class IdList {
  private ids: Uint32Array | Float64Array;
  /** ids[k] + base is an id; 0 once widened to Float64 (which holds the ids themselves). */
  private base = 0;
  private head = 0;
  private tail = 0;
  private wide = false;

  constructor(capacity = 4) {
    this.ids = new Uint32Array(capacity);
  }

  get length(): number {
    return this.tail - this.head;
  }

  push(id: number): void {
    if (this.tail === this.head) {
      // Empty: start again from this id.
      this.head = this.tail = 0;
      if (!this.wide) this.base = id;
    } else if (id - this.base > MAX_OFFSET && !this.wide) {
      this.rebase(id);
    }
    if (this.tail === this.ids.length) this.grow();
    this.ids[this.tail++] = id - this.base;
  }

  /** Id at logical position i (0 = oldest kept); only for 0 <= i < length. */
  at(i: number): number {
    return (this.ids[this.head + i] as number) + this.base;
  }

  first(): number | undefined {
    return this.tail > this.head ? (this.ids[this.head] as number) + this.base : undefined;
  }

  last(): number | undefined {
    return this.tail > this.head ? (this.ids[this.tail - 1] as number) + this.base : undefined;
  }

  shift(): void {
    if (this.tail > this.head) this.head++;
  }

  /** Logical position of the first id greater than `id` (length when there is none). */
  upperBound(id: number): number {
    const ids = this.ids;
    const offset = id - this.base;
    let lo = this.head;
    let hi = this.tail;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((ids[mid] as number) <= offset) lo = mid + 1;
      else hi = mid;
    }
    return lo - this.head;
  }

  // Moves the base up to the oldest id kept so `id` fits; widens the list when even that is not enough.
  private rebase(id: number): void {
    const first = this.ids[this.head] as number;
    if (id - this.base - first > MAX_OFFSET) {
      const wide = new Float64Array(this.ids.length);
      for (let k = this.head; k < this.tail; k++) wide[k] = (this.ids[k] as number) + this.base;
      this.ids = wide;
      this.base = 0;
      this.wide = true;
      return;
    }
    for (let k = this.head; k < this.tail; k++) this.ids[k] = (this.ids[k] as number) - first;
    this.base += first;
  }

  // Makes room at the tail: slides the kept ids down when at least half the array is dropped
  // ones, else doubles it, so both appends and drops stay O(1) amortised.
  private grow(): void {
    const kept = this.tail - this.head;
    if (kept * 2 <= this.ids.length) {
      this.ids.copyWithin(0, this.head, this.tail);
    } else {
      const size = Math.max(4, this.ids.length * 2);
      const next = this.wide ? new Float64Array(size) : new Uint32Array(size);
      next.set(this.ids.subarray(this.head, this.tail));
      this.ids = next;
    }
    this.head = 0;
    this.tail = kept;
  }
}
