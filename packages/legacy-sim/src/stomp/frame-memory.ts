/** Bytes of one slab; a frame over a quarter of it gets a buffer of its own. */
const SLAB_BYTES = 64 * 1024;

/**
 * Memory for the MESSAGE frames of a fan-out, one endpoint's sessions sharing it. A frame is
 * built in it, written to its socket, and when the socket took the bytes whole at once (the
 * kernel has copied them, the socket holds no reference) the same memory serves the next frame.
 * A frame the socket had to queue is kept: later frames go after it, or to a new slab once this
 * one is full, and the socket's reference keeps the old slab alive until it is written.
 *
 * Why: a fresh buffer per session and message was about 45 MB/s of buffers at 1000 sessions and
 * 100 messages a second, and allocating and collecting them showed in the fan-out's CPU.
 */
export class FrameMemory {
  private slab = new ArrayBuffer(SLAB_BYTES);
  /** Where the memory nobody holds starts. */
  private free = 0;
  /**
   * The last view handed out, at `free`: the sessions of one fan-out nearly all ask for the same
   * number of bytes (same head, as many digits in the sequence), and a view nobody holds may be
   * handed out again, as its memory is, so a fan-out makes no Buffer per session.
   */
  private view: Buffer | undefined;

  /** Memory for the next frame: valid until the next take(), unless keep() is called. */
  take(bytes: number): Buffer {
    if (bytes > SLAB_BYTES / 4) return Buffer.allocUnsafe(bytes);
    if (this.view !== undefined && this.view.length === bytes) return this.view;
    if (this.free + bytes > SLAB_BYTES) {
      this.slab = new ArrayBuffer(SLAB_BYTES);
      this.free = 0;
    }
    // Not subarray(): its species lookup costs more than the rest of take() (fan-out profile).
    this.view = Buffer.from(this.slab, this.free, bytes);
    return this.view;
  }

  /** The frame last taken is still referenced (a socket queued it): it must not be overwritten. */
  keep(frame: Buffer): void {
    if (frame.buffer !== this.slab || frame.byteOffset !== this.free) return;
    this.free += frame.length;
    this.view = undefined;
  }
}
