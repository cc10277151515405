import type { ServerResponse } from 'node:http';

/** Size of the pooled buffers: a full page of 100 events (about 41 KB) fits with room. */
const POOLED_BYTES = 64 * 1024;
/** Buffers kept for reuse at most (4 MiB); more in flight at once are simply let go. */
const POOL_MAX = 64;

const spare: Buffer[] = [];

/**
 * A buffer for one response body of `size` bytes (a view of its own memory). Bodies up to 64 KB
 * (every page of the default limit) come from a pool and go back to it once written, so a
 * busy read path writes into the same few buffers, warm in the cache, instead of touching fresh
 * memory for every page: each new page of memory costs a page fault, and on some virtual
 * machines a fault costs more than copying the page itself. Send it with sendPooled().
 */
export function responseBuffer(size: number): Buffer {
  if (size > POOLED_BYTES) return Buffer.allocUnsafe(size);
  const whole = spare.pop() ?? Buffer.allocUnsafeSlow(POOLED_BYTES);
  return whole.subarray(0, size);
}

/**
 * Ends the response with `body` (from responseBuffer()) and returns its memory to the pool
 * once Node has handed every byte to the kernel. A response that fails or is cut short never
 * returns it: the socket may still be reading it, so it is left to the garbage collector.
 */
export function endPooled(res: ServerResponse, body: Buffer): void {
  // Pooled memory is exactly POOLED_BYTES; a larger body has memory of its own size, and
  // Node's shared pool for small buffers is 8 KB.
  if (body.buffer.byteLength !== POOLED_BYTES) {
    res.end(body);
    return;
  }
  res.end(body, (err?: Error | null) => {
    if (!err && spare.length < POOL_MAX) spare.push(Buffer.from(body.buffer, body.byteOffset, POOLED_BYTES));
  });
}
