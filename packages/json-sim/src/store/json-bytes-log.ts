/**
 * Largest slab: 32 MiB, the most glibc's malloc ever raises its mmap threshold to, so a slab
 * this size always gets pages of its own from the kernel. Only the pages written count in RSS,
 * and they go back to the system the moment the slab is released. A smaller slab lands in the
 * allocator's heap between short-lived buffers (request bodies, staged seeds), where memory
 * freed around it is never returned: about 300 bytes an event at 100,000 events.
 */
export const LARGEST_SLAB_BYTES = 32 << 20;
const SMALLEST_SLAB_BYTES = 1 << 20;

/**
 * Bytes per slab for a log whose texts may take `budget` bytes: an eighth of it, between 1 MiB
 * and LARGEST_SLAB_BYTES. A slab is released only once all its texts are dropped, so what a log
 * holds beyond its budget stays within one slab.
 */
export function slabBytesFor(budget: number): number {
  return Math.min(LARGEST_SLAB_BYTES, Math.max(SMALLEST_SLAB_BYTES, Math.floor(budget / 8)));
}
/**
 * The UTF-8 bytes of a sequence of texts, appended at the tail and dropped at the head, packed
 * into large slabs addressed by numbers. Per text there is no JavaScript object at all (a Buffer
 * per text costs a heap object, and Node's shared 8 KB pool wastes about a quarter of each slab
 * on texts of a few hundred bytes), so a million stored events add nothing for the garbage
 * collector to walk. A slab is released once every text in it has been dropped.
 *
 * Per text the log keeps one number, 4 bytes: where the text starts in its slab. Which slab, and
 * how long the text is, follow from the slabs' own bookkeeping (the number of the first text of
 * each slab, and where each slab's texts end), since texts fill the slabs in order.
 *
 * Each text is followed in its slab by one separator byte (a comma by default), so texts stored
 * one after another can be copied out joined, run by run, with one copy per run instead of one
 * per text.
 */
export class JsonBytesLog {
  private readonly slabs: Buffer[] = [];
  /** Per slab: the number (texts pushed before it over the log's life) of its first text. */
  private readonly slabFirst: number[] = [];
  /** Per slab: where its texts end; the newest slab's is `fill`. */
  private readonly slabEnd: number[] = [];
  /** Where the next text goes in the newest slab. */
  private fill: number;
  /** The slabs' sizes summed. */
  private slabsBytes = 0;
  /** Per text: its offset in its slab, oldest at `head`. */
  private starts = new Uint32Array(1024);
  private head = 0;
  private count = 0;
  /** Texts dropped over the log's life: the number of text 0. */
  private dropped = 0;
  /** The slab the last lookup found: reads go through a page's texts in order. */
  private lastSlab = 0;

  /** `slabBytes`: see slabBytesFor(); a text larger than a slab gets a slab of its own size. */
  constructor(
    private readonly slabBytes = SMALLEST_SLAB_BYTES,
    private readonly separator = 0x2c,
  ) {
    this.fill = slabBytes;
  }

  get length(): number {
    return this.count;
  }

  /**
   * Appends the text; `bytes` is its UTF-8 length when the caller has it already. All or
   * nothing: both allocations come before anything is written or counted.
   */
  push(text: string, bytes = Buffer.byteLength(text, 'utf8')): void {
    const slab = this.room(bytes);
    slab.write(text, this.fill, bytes, 'utf8');
    this.record(slab, bytes);
  }

  // Both allocations (ring and slab) come before anything is written or counted.
  private room(bytes: number): Buffer {
    if (this.count === this.starts.length) this.grow();
    let slab = this.slabs[this.slabs.length - 1];
    if (slab === undefined || this.fill + bytes + 1 > slab.length) {
      // A quarter of what the slabs hold, up to the log's slab size: a store reset before every
      // test takes no large slab each time, and one holding a few megabytes while old events go
      // keeps no more than a slab of dropped texts beyond them.
      const size = Math.min(this.slabBytes, Math.max(SMALLEST_SLAB_BYTES, Math.floor(this.slabsBytes / 4)));
      slab = Buffer.allocUnsafeSlow(Math.max(size, bytes + 1));
      this.addSlab(slab);
    }
    return slab;
  }

  // The newest slab is now `slab`, its first text the next one pushed.
  private addSlab(slab: Buffer): void {
    if (this.slabs.length > 0) this.slabEnd[this.slabEnd.length - 1] = this.fill;
    this.slabs.push(slab);
    this.slabsBytes += slab.length;
    this.slabFirst.push(this.dropped + this.count);
    this.slabEnd.push(0);
    this.fill = 0;
  }

  // Counts the text just written at `fill` and puts its separator after it.
  private record(slab: Buffer, bytes: number): void {
    slab[this.fill + bytes] = this.separator;
    this.starts[(this.head + this.count) % this.starts.length] = this.fill;
    this.fill += bytes + 1;
    this.count++;
  }

  /**
   * Appends a text made of `length` bytes of `source` from `start`, then the bytes of `middle`,
   * then the decimal digits of `id` (a whole number >= 0), then a closing brace: a staged event
   * and the fields the store assigns it, put together with no string in between.
   */
  pushAssigned(source: Buffer, start: number, length: number, middle: Buffer, id: number): void {
    const digits = decimalDigits(id);
    const bytes = length + middle.length + digits + 1;
    const slab = this.room(bytes);
    let at = this.fill;
    at += source.copy(slab, at, start, start + length);
    at += middle.copy(slab, at);
    writeDigits(slab, at, digits, id);
    slab[at + digits] = 0x7d;
    this.record(slab, bytes);
  }

  /**
   * Takes `chunk` as a slab of its own instead of copying from it, when that keeps memory lower:
   * text k of `count` is `length(k)` bytes at `start(k)` (ascending, the first at 0) and becomes
   * those bytes, `middle`, the digits of `firstId + k` and a closing brace, like pushAssigned().
   * The texts are moved up in place, the last first, so nothing is overwritten before it moved.
   * Only a chunk as large as this log's slabs, holding at least a megabyte, is taken: a staged
   * seed then becomes the store's memory instead of a second copy of it waiting for the garbage
   * collector. False (nothing changed) when it is not taken or has no room left for the texts.
   */
  adoptAssigned(
    chunk: Buffer,
    count: number,
    start: (k: number) => number,
    length: (k: number) => number,
    middle: Buffer,
    firstId: number,
  ): boolean {
    if (this.slabBytes < LARGEST_SLAB_BYTES || chunk.length < this.slabBytes || count === 0) return false;
    if (start(count - 1) + length(count - 1) < SMALLEST_SLAB_BYTES) return false;
    const finalAt = new Float64Array(count + 1);
    for (let k = 0; k < count; k++) {
      const bytes = length(k) + middle.length + decimalDigits(firstId + k) + 1;
      finalAt[k + 1] = (finalAt[k] as number) + bytes + 1;
    }
    if ((finalAt[count] as number) > chunk.length) return false;
    while (this.starts.length < this.count + count) this.grow();
    for (let k = count - 1; k >= 0; k--) {
      let at = finalAt[k] as number;
      chunk.copyWithin(at, start(k), start(k) + length(k));
      at += length(k);
      at += middle.copy(chunk, at);
      const digits = decimalDigits(firstId + k);
      writeDigits(chunk, at, digits, firstId + k);
      chunk[at + digits] = 0x7d;
      chunk[at + digits + 1] = this.separator;
    }
    this.addSlab(chunk);
    for (let k = 0; k < count; k++) {
      this.starts[(this.head + this.count) % this.starts.length] = finalAt[k] as number;
      this.count++;
    }
    this.fill = finalAt[count] as number;
    return true;
  }

  /** Drops the oldest text, and its slab once nothing in it is left. */
  shift(): void {
    if (this.count === 0) return;
    this.head = (this.head + 1) % this.starts.length;
    this.count--;
    this.dropped++;
    // The newest slab stays while it has room, even with nothing left in it.
    while (this.slabs.length > 1 && (this.slabFirst[1] as number) <= this.dropped) {
      this.slabsBytes -= (this.slabs.shift() as Buffer).length;
      this.slabFirst.shift();
      this.slabEnd.shift();
    }
    this.lastSlab = 0;
  }

  /** Byte length of text i (0 = oldest kept). */
  byteLength(i: number): number {
    const s = this.slabOf(i);
    return this.endOf(i, s) - this.startOf(i);
  }

  /** Copies text i's bytes into target at `at`; returns how many were written. */
  copyTo(i: number, target: Uint8Array, at: number): number {
    const s = this.slabOf(i);
    const slab = this.slabs[s] as Buffer;
    const start = this.startOf(i);
    const bytes = this.endOf(i, s) - start;
    // A plain view and one native copy: Buffer#copy with a range makes the same view, and checks
    // and wraps around it cost more than the copy of a few hundred bytes.
    target.set(new Uint8Array(slab.buffer, slab.byteOffset + start, bytes), at);
    return bytes;
  }

  /**
   * How many texts from i on (at most `max`) lie one after another in i's slab, so that
   * copyRun() can copy them at once.
   */
  runLength(i: number, max: number): number {
    const s = this.slabOf(i);
    const inSlab =
      s + 1 < this.slabs.length ? (this.slabFirst[s + 1] as number) - this.dropped - i : this.count - i;
    return Math.min(max, inSlab);
  }

  /**
   * Copies texts i .. i + n - 1 (one runLength() run), each followed by the separator (the last
   * one too unless `last` is false), into target at `at`; returns the bytes written.
   */
  copyRun(i: number, n: number, target: Uint8Array, at: number, last = true): number {
    const s = this.slabOf(i);
    const slab = this.slabs[s] as Buffer;
    const start = this.startOf(i);
    const end = this.endOf(i + n - 1, s) + (last ? 1 : 0);
    target.set(new Uint8Array(slab.buffer, slab.byteOffset + start, end - start), at);
    return end - start;
  }

  text(i: number): string {
    const s = this.slabOf(i);
    return (this.slabs[s] as Buffer).toString('utf8', this.startOf(i), this.endOf(i, s));
  }

  private startOf(i: number): number {
    return this.starts[(this.head + i) % this.starts.length] as number;
  }

  // Where text i (in slab s) ends: where the next text of its slab starts, less the separator.
  private endOf(i: number, s: number): number {
    const next = i + 1;
    const nextInSlab =
      next < this.count &&
      (s + 1 >= this.slabs.length || this.dropped + next < (this.slabFirst[s + 1] as number));
    if (nextInSlab) return this.startOf(next) - 1;
    return (s + 1 < this.slabs.length ? (this.slabEnd[s] as number) : this.fill) - 1;
  }

  // The position in `slabs` of text i's slab: the one the last lookup found, most of the time.
  private slabOf(i: number): number {
    const n = this.dropped + i;
    const first = this.slabFirst;
    const last = first.length - 1;
    let s = this.lastSlab;
    if (s > last || (first[s] as number) > n || (s < last && n >= (first[s + 1] as number))) {
      // The last slab whose first text is at or before n.
      let lo = 0;
      let hi = last;
      while (lo < hi) {
        const mid = (lo + hi + 1) >>> 1;
        if ((first[mid] as number) <= n) lo = mid;
        else hi = mid - 1;
      }
      s = lo;
      this.lastSlab = s;
    }
    return s;
  }

  // Doubles the ring, unwrapping it so the oldest entry is first again.
  private grow(): void {
    const next = new Uint32Array(this.starts.length * 2);
    const tail = this.starts.subarray(this.head);
    next.set(tail, 0);
    next.set(this.starts.subarray(0, this.head), tail.length);
    this.starts = next;
    this.head = 0;
  }
}

/** Writes the `digits` decimal digits of `n` (a whole number >= 0) at `at`. */
function writeDigits(target: Buffer, at: number, digits: number, n: number): void {
  for (let k = at + digits - 1; k >= at; k--, n = Math.floor(n / 10)) target[k] = 0x30 + (n % 10);
}

/** How many decimal digits a whole number >= 0 is written with. */
export function decimalDigits(n: number): number {
  let digits = 1;
  while (n >= 10) {
    n = Math.floor(n / 10);
    digits++;
  }
  return digits;
}
