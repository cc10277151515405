/**
 * Bytes per arena buffer: 32 MiB, like the largest JSON slab (json-bytes-log.ts), so the kernel
 * gives it pages of its own and only the pages written count in RSS.
 */
const ARENA_BYTES = 32 << 20;

/**
 * The full-size blocks of one store's id lists (id-list.ts), cut from large buffers and handed
 * back for reuse when a list drops them: blocks of 2-byte entries, which most lists' blocks are,
 * and of 4-byte ones, for a block whose ids spread wider. At a million events the lists hold
 * about 20 MB; as separate allocations each block also cost an ArrayBuffer object for the
 * garbage collector and sat in the allocator's heap between short-lived buffers, where memory
 * freed around them was never returned. A buffer is taken only when a list first fills a whole
 * block, so a store of a few events (one reset before every test) takes none.
 */
export class BlockArena {
  private readonly free16: Uint16Array[] = [];
  private readonly free32: Uint32Array[] = [];
  private buffer: ArrayBuffer | undefined;
  private next = 0;

  constructor(readonly entries: number) {}

  /** A block of `entries` Uint16s; its contents are whatever it last held. */
  take16(): Uint16Array {
    return this.free16.pop() ?? new Uint16Array(this.room(2), this.cut(2), this.entries);
  }

  /** A block of `entries` Uint32s; its contents are whatever it last held. */
  take32(): Uint32Array {
    return this.free32.pop() ?? new Uint32Array(this.room(4), this.cut(4), this.entries);
  }

  /** Takes back a block take16() or take32() gave; any other array (a list's own) is left alone. */
  give(block: Uint16Array | Uint32Array | Float64Array): void {
    if (block.buffer.byteLength === block.byteLength) return;
    if (block instanceof Uint16Array) this.free16.push(block);
    else if (block instanceof Uint32Array) this.free32.push(block);
  }

  // The buffer the next block of `width`-byte entries is cut from.
  private room(width: number): ArrayBuffer {
    const bytes = this.blockBytes(width);
    if (this.buffer === undefined || this.next + bytes > this.buffer.byteLength) {
      this.buffer = new ArrayBuffer(Math.max(ARENA_BYTES, bytes));
      this.next = 0;
    }
    return this.buffer;
  }

  // Where the block just made room for starts, and moves past it.
  private cut(width: number): number {
    const at = this.next;
    this.next += this.blockBytes(width);
    return at;
  }

  // A block's bytes, rounded up to 4 so that every cut stays aligned for either width.
  private blockBytes(width: number): number {
    return Math.ceil((this.entries * width) / 4) * 4;
  }
}
