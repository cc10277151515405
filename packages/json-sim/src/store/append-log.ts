/**
 * An array that grows at the tail and drops at the head in O(1) amortised, with binary search
 * by a monotonically increasing key. Array.shift() is O(n) on large arrays; a head index with
 * occasional compaction is not.
 */
export class AppendLog<T> {
  private items: T[] = [];
  private head = 0;

  constructor(private readonly keyOf: (item: T) => number) {}

  get length(): number {
    return this.items.length - this.head;
  }

  push(item: T): void {
    this.items.push(item);
  }

  first(): T | undefined {
    return this.items[this.head];
  }

  last(): T | undefined {
    return this.length > 0 ? this.items[this.items.length - 1] : undefined;
  }

  /** Item at logical position i (0 = oldest kept). */
  at(i: number): T | undefined {
    return this.items[this.head + i];
  }

  shift(): T | undefined {
    if (this.length === 0) return undefined;
    const item = this.items[this.head];
    this.items[this.head] = undefined as T;
    this.head++;
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }

  /** Logical position of the first item whose key is greater than `key`. */
  upperBound(key: number): number {
    let lo = this.head;
    let hi = this.items.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.keyOf(this.items[mid] as T) <= key) lo = mid + 1;
      else hi = mid;
    }
    return lo - this.head;
  }
}
