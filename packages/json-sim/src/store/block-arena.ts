/**
 * Bytes per arena buffer: 32 MiB, like the largest JSON slab (json-bytes-log.ts), so the kernel
 * gives it pages of its own and only the pages written count in RSS.
 */
const ARENA_BYTES = 32 << 20;

/**
 * The full-size blocks of one store's id lists (id-list.ts), cut from large buffers and handed
 * back for reuse when a list drops them. At a million events the lists hold about 40 MB; as
 * separate 2 KB allocations each also cost an ArrayBuffer object for the garbage collector and
 * sat in the allocator's heap between short-lived buffers, where memory freed around them was
 * never returned. A buffer is taken only when a list first fills a whole block, so a store of a
 * few events (one reset before every test) takes none.
 */
export class BlockArena {
  private readonly free: Uint32Array[] = [];
  private buffer: ArrayBuffer | undefined;
  private next = 0;

  constructor(readonly entries: number) {}

  /** A block of `entries` Uint32s; its contents are whatever it last held. */
  take(): Uint32Array {
    const reused = this.free.pop();
    if (reused) return reused;
    const bytes = this.entries * Uint32Array.BYTES_PER_ELEMENT;
    if (this.buffer === undefined || this.next + bytes > this.buffer.byteLength) {
      this.buffer = new ArrayBuffer(Math.max(ARENA_BYTES, bytes));
      this.next = 0;
    }
    const block = new Uint32Array(this.buffer, this.next, this.entries);
    this.next += bytes;
    return block;
  }

  /** Takes back a block take() gave; any other array (a list's own small or widened one) is left alone. */
  give(block: Uint32Array | Float64Array): void {
    if (block instanceof Uint32Array && block.buffer.byteLength !== block.byteLength) this.free.push(block);
  }
}
