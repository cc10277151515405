import type { BlockArena } from './block-arena';

/** Largest offset from a block's base a Uint16Array entry holds. */
const MAX_OFFSET_16 = 0xffff;
/** Largest offset from a block's base a Uint32Array entry holds. */
const MAX_OFFSET = 0xffffffff;
/** Entries per full block: 2 KB of Uint32. */
export const BLOCK_ENTRIES = 512;

type Block = Uint16Array | Uint32Array | Float64Array;

/**
 * Ascending eventIds, appended at the tail and dropped at the head, in typed arrays: no object
 * per entry for the garbage collector to walk. An event is listed up to 9 times, so at a million
 * events these lists are the store's largest structure after the JSON itself.
 *
 * The ids are kept in blocks of equal size, every block but the last full: growing a list adds a
 * block instead of copying the list into an array twice its size. Doubling left a third of each
 * array unused on average, and each copy left the old array behind as a hole in the allocator's
 * heap that the process never gave back (together about 40 bytes an event). A list starts with a
 * small block that doubles until it is full size, so the many short lists (a day, a race) stay
 * small.
 *
 * Each block keeps its ids as offsets from its own base: in a Uint16Array, 2 bytes an entry,
 * while they lie within 65,535 of it, as the ids of a channel's, a day's or a race's events
 * usually do when they come in together (a block of a channel among eight spans about 4,000
 * ids); a block whose ids spread wider is widened to a Uint32Array, 4 bytes an entry. The
 * store's ids are consecutive and it holds a bounded number of them, so the live ids of a block
 * lie within a few million of each other; a block whose ids ever spread wider than 32 bits is
 * widened to exact Float64 ids instead.
 */
export class IdList {
  private blocks: Block[] = [];
  /** blocks[b][k] + bases[b] is an id; 0 for a widened (Float64) block. */
  private bases: number[] = [];
  /** Entries of blocks[0] already dropped. */
  private head = 0;
  private count = 0;
  /** Entries written in the last block. */
  private tailFill = 0;

  private readonly blockShift: number;

  /** `blockEntries`: a power of two, so a position splits into block and entry by shifts. */
  /** `arena`: where full blocks come from and go back to (the store's), when its blocks are this size. */
  constructor(
    private readonly firstCapacity = 8,
    private readonly blockEntries = BLOCK_ENTRIES,
    private readonly arena?: BlockArena,
  ) {
    this.blockShift = Math.log2(blockEntries);
    if (!Number.isInteger(this.blockShift))
      throw new RangeError(`blockEntries must be a power of two, not ${blockEntries}`);
  }

  get length(): number {
    return this.count;
  }

  push(id: number): void {
    let b = this.blocks.length - 1;
    let block = this.blocks[b];
    if (block === undefined || this.tailFill === block.length) {
      if (block !== undefined && block.length < this.blockEntries && this.head * 2 >= block.length) {
        // The only block, small, and mostly dropped ids: its live ids slide down instead.
        block.copyWithin(0, this.head, this.tailFill);
        this.tailFill -= this.head;
        this.head = 0;
      } else if (block !== undefined && block.length < this.blockEntries) {
        // The only block, still small: doubled in place of a new one.
        block = this.resized(block, Math.min(this.blockEntries, block.length * 2));
        this.blocks[b] = block;
      } else {
        block =
          block === undefined
            ? new Uint16Array(Math.min(this.firstCapacity, this.blockEntries))
            : this.fullBlock();
        b = this.blocks.push(block) - 1;
        this.bases.push(id);
        this.tailFill = 0;
      }
    }
    const offset = id - (this.bases[b] as number);
    if (offset > MAX_OFFSET_16 && block instanceof Uint16Array) block = this.widened(b);
    if (offset > MAX_OFFSET && block instanceof Uint32Array) block = this.rebase(b, id);
    block[this.tailFill++] = id - (this.bases[b] as number);
    this.count++;
  }

  /** Id at logical position i (0 = oldest kept); only for 0 <= i < length. */
  at(i: number): number {
    return this.idAt(i);
  }

  first(): number | undefined {
    return this.count > 0 ? this.idAt(0) : undefined;
  }

  last(): number | undefined {
    return this.count > 0 ? this.idAt(this.count - 1) : undefined;
  }

  shift(): void {
    if (this.count === 0) return;
    this.count--;
    if (this.count === 0) {
      // Empty: its memory goes, and the next push starts small again.
      for (const block of this.blocks) this.arena?.give(block);
      this.blocks = [];
      this.bases = [];
      this.head = this.tailFill = 0;
      return;
    }
    if (++this.head === (this.blocks[0] as Block).length) {
      this.arena?.give(this.blocks[0] as Block);
      this.blocks.shift();
      this.bases.shift();
      this.head = 0;
    }
  }

  /** Logical position of the first id greater than `id` (length when there is none). */
  upperBound(id: number): number {
    let lo = 0;
    let hi = this.count;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.idAt(mid) <= id) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private idAt(i: number): number {
    // Every block but the last is full, or the list is one small block: either way position p
    // is entry p % blockEntries of block p / blockEntries.
    const p = this.head + i;
    const b = p >>> this.blockShift;
    return ((this.blocks[b] as Block)[p & (this.blockEntries - 1)] as number) + (this.bases[b] as number);
  }

  private fullBlock(): Uint16Array {
    return this.arena?.entries === this.blockEntries
      ? this.arena.take16()
      : new Uint16Array(this.blockEntries);
  }

  private resized(block: Block, size: number): Block {
    const next =
      block instanceof Float64Array
        ? new Float64Array(size)
        : block instanceof Uint32Array
          ? new Uint32Array(size)
          : new Uint16Array(size);
    next.set(block);
    return next;
  }

  // The last block (b), of 2-byte offsets, as 4-byte ones: an id came more than 65,535 past
  // its base. Entries before the list's head stay where they are, as positions count from them.
  private widened(b: number): Uint32Array {
    const block = this.blocks[b] as Uint16Array;
    const full = block.length === this.blockEntries && this.arena?.entries === this.blockEntries;
    const wide = full ? (this.arena as BlockArena).take32() : new Uint32Array(block.length);
    wide.set(block.subarray(0, this.tailFill));
    this.arena?.give(block);
    this.blocks[b] = wide;
    return wide;
  }

  // Makes the last block (b) hold `id`, further from its base than 32 bits allow: its base moves
  // up to its oldest live id when that is enough, else the block is widened to Float64 ids.
  private rebase(b: number, id: number): Block {
    const block = this.blocks[b] as Uint32Array;
    const from = b === 0 ? this.head : 0;
    const base = this.bases[b] as number;
    const oldest = block[from] as number;
    if (from < this.tailFill && id - (base + oldest) <= MAX_OFFSET) {
      for (let k = from; k < this.tailFill; k++) block[k] = (block[k] as number) - oldest;
      this.bases[b] = base + oldest;
      return block;
    }
    const wide = new Float64Array(block.length);
    for (let k = 0; k < this.tailFill; k++) wide[k] = (block[k] as number) + base;
    this.arena?.give(block);
    this.blocks[b] = wide;
    this.bases[b] = 0;
    return wide;
  }
}
