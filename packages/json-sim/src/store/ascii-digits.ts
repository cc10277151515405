/**
 * Decimal digits written straight into a byte array: the envelope numbers of an event page
 * (ids, dates, timestamps), a handful of bytes each, cost less as stores than as strings encoded
 * by a native call.
 */

/** How many digits n (a non-negative safe integer) has in decimal; comparisons, no division. */
export function digitCount(n: number): number {
  if (n < 1e5) return n < 10 ? 1 : n < 100 ? 2 : n < 1000 ? 3 : n < 1e4 ? 4 : 5;
  if (n < 1e10) return n < 1e6 ? 6 : n < 1e7 ? 7 : n < 1e8 ? 8 : n < 1e9 ? 9 : 10;
  let count = 11;
  for (let limit = 1e11; n >= limit && count < 16; limit *= 10) count++;
  return count;
}

/** Writes n (a non-negative safe integer) as JSON.stringify would; returns the end. */
export function writeUint(target: Uint8Array, at: number, n: number): number {
  const end = at + digitCount(n);
  let p = end;
  if (n <= 0x7fff_ffff) {
    do {
      const q = (n / 10) | 0;
      target[--p] = 0x30 + n - q * 10;
      n = q;
    } while (n > 0);
  } else {
    do {
      const q = Math.floor(n / 10);
      target[--p] = 0x30 + n - q * 10;
      n = q;
    } while (n > 0);
  }
  return end;
}

/** Writes n (0 <= n < 10 ** width) zero-padded to `width` digits. */
export function writePadded(target: Uint8Array, at: number, n: number, width: number): void {
  for (let p = at + width - 1; p >= at; p--) {
    const q = (n / 10) | 0;
    target[p] = 0x30 + n - q * 10;
    n = q;
  }
}
