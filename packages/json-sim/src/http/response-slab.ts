/** Bytes per slab responses are cut from. */
const SLAB_BYTES = 1 << 20;
/** A body larger than this gets a buffer of its own, so it does not waste most of a slab. */
const OWN_BUFFER_FROM = SLAB_BYTES / 4;

let slab: Buffer | undefined;
let used = 0;

/**
 * A buffer for one response body, cut from a shared 1 MiB slab (like Node's own 8 KiB pool, for
 * the 40 KB bodies of event pages): one native allocation per couple of dozen pages instead of
 * one per page. Each body gets bytes of its own, never handed out again, so a body still being
 * written to a slow socket cannot be overwritten; a slab is freed when its last body is.
 */
export function responseBuffer(size: number): Buffer {
  if (size > OWN_BUFFER_FROM) return Buffer.allocUnsafe(size);
  if (slab === undefined || used + size > slab.length) {
    slab = Buffer.allocUnsafeSlow(SLAB_BYTES);
    used = 0;
  }
  const body = slab.subarray(used, used + size);
  // Aligned, as Node aligns its pool, so copies into the next body start on a word.
  used = (used + size + 7) & ~7;
  return body;
}
