/**
 * Deepest nesting of objects and arrays a request body or a WebSocket message may have. Real
 * race-data payloads nest a handful of levels; a deeper body is refused before it is parsed,
 * because serialising it again (to store it, to send it) recurses once per level and a few
 * thousand levels overflow the stack.
 */
export const MAX_JSON_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/**
 * True when the JSON text in `bytes` (UTF-8) opens more than `limit` objects and arrays inside
 * one another. One pass, no recursion and no allocation, whatever the input: it only tracks
 * whether it is inside a string, so it also answers for text that is not valid JSON (which the
 * parser then refuses). Bytes of multi-byte UTF-8 characters are all >= 0x80, so they are never
 * taken for a quote, backslash or bracket.
 */
export function jsonDepthExceeds(bytes: Uint8Array, limit: number = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i] as number;
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > limit) return true;
    } else if ((c === CLOSE_BRACE || c === CLOSE_BRACKET) && depth > 0) {
      depth--;
    }
  }
  return false;
}

/**
 * jsonDepthExceeds for JSON already decoded to a string (a recording line, a WebSocket message):
 * the same single pass over UTF-16 code units, which never take a surrogate for a bracket.
 */
export function jsonTextDepthExceeds(text: string, limit: number = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > limit) return true;
    } else if ((c === CLOSE_BRACE || c === CLOSE_BRACKET) && depth > 0) {
      depth--;
    }
  }
  return false;
}
