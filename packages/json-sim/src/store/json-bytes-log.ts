/** Bytes per slab; a text larger than this gets a slab of its own size. */
const SLAB_BYTES = 1 << 20;
/** Numbers kept per entry in the ring (Uint32, 12 bytes an entry): slab id, offset in the slab, byte length. */
const FIELDS = 3;

/**
 * The UTF-8 bytes of a sequence of texts, appended at the tail and dropped at the head, packed
 * into large slabs addressed by numbers. Per text there is no JavaScript object at all (a Buffer
 * per text costs a heap object, and Node's shared 8 KB pool wastes about a quarter of each slab
 * on texts of a few hundred bytes), so a million stored events add nothing for the garbage
 * collector to walk. A slab is released once every text in it has been dropped.
 *
 * Each text is followed in its slab by one separator byte (a comma by default), so texts stored
 * one after another can be copied out joined, run by run, with one copy per run instead of one
 * per text.
 */
export class JsonBytesLog {
  private readonly slabs: Buffer[] = [];
  /** Id of slabs[0]; ids grow for the log's life, positions in `slabs` shift as slabs go. */
  private firstSlabId = 0;
  /** Where the next text goes in the newest slab. */
  private fill = SLAB_BYTES;
  private ring = new Uint32Array(FIELDS * 1024);
  private head = 0;
  private count = 0;

  constructor(private readonly separator = 0x2c) {}

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
    if (this.count * FIELDS === this.ring.length) this.grow();
    let slab = this.slabs[this.slabs.length - 1];
    if (slab === undefined || this.fill + bytes + 1 > slab.length) {
      slab = Buffer.allocUnsafeSlow(Math.max(SLAB_BYTES, bytes + 1));
      this.slabs.push(slab);
      this.fill = 0;
    }
    return slab;
  }

  // Counts the text just written at `fill` and puts its separator after it.
  private record(slab: Buffer, bytes: number): void {
    slab[this.fill + bytes] = this.separator;
    const at = this.slot(this.count);
    this.ring[at] = this.firstSlabId + this.slabs.length - 1;
    this.ring[at + 1] = this.fill;
    this.ring[at + 2] = bytes;
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
    for (let k = at + digits - 1, n = id; k >= at; k--, n = Math.floor(n / 10)) slab[k] = 0x30 + (n % 10);
    slab[at + digits] = 0x7d;
    this.record(slab, bytes);
  }

  /** Drops the oldest text, and its slab once nothing in it is left. */
  shift(): void {
    if (this.count === 0) return;
    this.head = (this.head + 1) % (this.ring.length / FIELDS);
    this.count--;
    const keepFrom = this.count === 0 ? this.firstSlabId + this.slabs.length - 1 : this.ring[this.slot(0)];
    while (this.firstSlabId < (keepFrom as number)) {
      this.slabs.shift();
      this.firstSlabId++;
    }
  }

  /** Byte length of text i (0 = oldest kept). */
  byteLength(i: number): number {
    return this.ring[this.slot(i) + 2] as number;
  }

  /** Copies text i's bytes into target at `at`; returns how many were written. */
  copyTo(i: number, target: Uint8Array, at: number): number {
    const s = this.slot(i);
    const slab = this.slabs[(this.ring[s] as number) - this.firstSlabId] as Buffer;
    const bytes = this.ring[s + 2] as number;
    // A plain view and one native copy: Buffer#copy with a range makes the same view, and checks
    // and wraps around it cost more than the copy of a few hundred bytes.
    target.set(new Uint8Array(slab.buffer, slab.byteOffset + (this.ring[s + 1] as number), bytes), at);
    return bytes;
  }

  /**
   * How many texts from i on (at most `max`) lie one after another in i's slab, so that
   * copyRun() can copy them at once.
   */
  runLength(i: number, max: number): number {
    const slab = this.ring[this.slot(i)];
    let n = 1;
    while (n < max && this.ring[this.slot(i + n)] === slab) n++;
    return n;
  }

  /**
   * Copies texts i .. i + n - 1 (one runLength() run), each followed by the separator (the last
   * one too unless `last` is false), into target at `at`; returns the bytes written.
   */
  copyRun(i: number, n: number, target: Uint8Array, at: number, last = true): number {
    const first = this.slot(i);
    const lastSlot = this.slot(i + n - 1);
    const slab = this.slabs[(this.ring[first] as number) - this.firstSlabId] as Buffer;
    const start = this.ring[first + 1] as number;
    const end = (this.ring[lastSlot + 1] as number) + (this.ring[lastSlot + 2] as number) + (last ? 1 : 0);
    const bytes = end - start;
    target.set(new Uint8Array(slab.buffer, slab.byteOffset + start, bytes), at);
    return bytes;
  }

  text(i: number): string {
    const s = this.slot(i);
    const slab = this.slabs[(this.ring[s] as number) - this.firstSlabId] as Buffer;
    const start = this.ring[s + 1] as number;
    return slab.toString('utf8', start, start + (this.ring[s + 2] as number));
  }

  private slot(i: number): number {
    return ((this.head + i) % (this.ring.length / FIELDS)) * FIELDS;
  }

  // Doubles the ring, unwrapping it so the oldest entry is first again.
  private grow(): void {
    const next = new Uint32Array(this.ring.length * 2);
    const tail = this.ring.subarray(this.head * FIELDS);
    next.set(tail, 0);
    next.set(this.ring.subarray(0, this.head * FIELDS), tail.length);
    this.ring = next;
    this.head = 0;
  }
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
