/**
 * The checker (xml-check.ts) reads a document as UTF-8 bytes, so an injected body is checked as it
 * arrived, without a decoded copy. These helpers give those bytes the measures a JavaScript
 * string has: code points, and positions in UTF-16 code units, which is how messages count.
 */

/** The byte-order mark U+FEFF, as UTF-8. */
export function hasBomAt(bytes: Uint8Array, at: number): boolean {
  return bytes[at] === 0xef && bytes[at + 1] === 0xbb && bytes[at + 2] === 0xbf;
}

/**
 * The code point whose sequence starts at `at` (a surrogate when the sequence encodes one, as a
 * string's lone surrogate is encoded by utf8Of). The bytes are well-formed: isUtf8 passed them,
 * or utf8Of wrote them.
 */
export function codePointAt(bytes: Uint8Array, at: number): number {
  const lead = bytes[at] ?? 0;
  if (lead < 0x80) return lead;
  const next = (k: number) => (bytes[at + k] ?? 0) & 0x3f;
  if (lead < 0xe0) return ((lead & 0x1f) << 6) | next(1);
  if (lead < 0xf0) return ((lead & 0x0f) << 12) | (next(1) << 6) | next(2);
  return ((lead & 0x07) << 18) | (next(1) << 12) | (next(2) << 6) | next(3);
}

/** How many UTF-16 code units the characters in [from, to) take: one each, two above U+FFFF. */
export function unitsIn(bytes: Uint8Array, from: number, to: number): number {
  let units = 0;
  for (let i = from; i < to; i++) {
    const b = bytes[i] as number;
    if ((b & 0xc0) !== 0x80) units += b >= 0xf0 ? 2 : 1;
  }
  return units;
}

/** Where the first surrogate without its other half stands at or after `from`, else -1. */
function loneSurrogateAt(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    const next = text.charCodeAt(i + 1);
    if (c > 0xdbff || !(next >= 0xdc00 && next <= 0xdfff)) return i;
    i++;
  }
  return -1;
}

/** String.prototype.isWellFormed (Node 20 has it; the ES2022 typings do not). */
const isWellFormed = (text: string): boolean =>
  (text as unknown as { isWellFormed(): boolean }).isWellFormed();

/**
 * A string's UTF-8 bytes, for the checker. A lone surrogate, which UTF-8 cannot hold, is written
 * as the three bytes its code point would take (as WTF-8 does) rather than as U+FFFD, so the
 * checker refuses it where it stands, as it refuses any character XML does not allow.
 */
export function utf8Of(text: string): Buffer {
  if (isWellFormed(text)) return Buffer.from(text, 'utf8');
  const parts: Buffer[] = [];
  let from = 0;
  for (let at = loneSurrogateAt(text, 0); at >= 0; at = loneSurrogateAt(text, from)) {
    parts.push(Buffer.from(text.slice(from, at), 'utf8'));
    const code = text.charCodeAt(at);
    parts.push(Buffer.from([0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]));
    from = at + 1;
  }
  parts.push(Buffer.from(text.slice(from), 'utf8'));
  return Buffer.concat(parts);
}

/** What `text.trim() === ''` says of the text these bytes hold, decoding only when it must. */
export function isBlank(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] as number;
    if (b >= 0x80)
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('utf8').trim() === '';
    // The ASCII characters trim() removes: tab, LF, VT, FF, CR and space.
    if (b !== 0x20 && (b < 0x09 || b > 0x0d)) return false;
  }
  return true;
}
