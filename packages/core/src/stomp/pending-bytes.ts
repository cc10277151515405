/** Capacity kept after a frame completes; a bigger buffer (one large frame) is given back. */
const KEEP_BYTES = 16 * 1024;

/**
 * The bytes of a STOMP frame still arriving. Appends copy into spare capacity that doubles when
 * short, so a frame delivered in n tiny messages costs O(n) copying instead of the O(n²) of
 * concatenating the whole buffer with every message.
 */
export class PendingBytes {
  private buf = Buffer.alloc(0);
  private end = 0;
  private copied = 0;

  get length(): number {
    return this.end;
  }

  /** Total bytes ever copied by append() and consume(). */
  get bytesCopied(): number {
    return this.copied;
  }

  append(bytes: Buffer): void {
    const needed = this.end + bytes.length;
    if (needed > this.buf.length) {
      const grown = Buffer.allocUnsafe(Math.max(needed, this.buf.length * 2, 256));
      this.buf.copy(grown, 0, 0, this.end);
      this.copied += this.end;
      this.buf = grown;
    }
    bytes.copy(this.buf, this.end);
    this.copied += bytes.length;
    this.end = needed;
  }

  /** The held bytes, valid until the next append, consume or clear. */
  view(): Buffer {
    return this.buf.subarray(0, this.end);
  }

  /** Drops the first `count` bytes (complete frames); the rest moves to the front. */
  consume(count: number): void {
    if (count === 0) return;
    if (count >= this.end) {
      this.clear();
      return;
    }
    this.buf.copy(this.buf, 0, count, this.end);
    this.copied += this.end - count;
    this.end -= count;
  }

  clear(): void {
    this.end = 0;
    if (this.buf.length > KEEP_BYTES) this.buf = Buffer.alloc(0);
  }
}
