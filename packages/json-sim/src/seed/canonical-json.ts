import { isUtf8 } from 'node:buffer';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;
const POINT = 0x2e;
const PLUS = 0x2b;
const LOWER_E = 0x65;
const UPPER_E = 0x45;

/** Escapes JSON.stringify writes in short form (\" \\ \b \f \n \r \t); any other is not its own. */
const SHORT_ESCAPE = new Uint8Array(128);
for (const c of '"\\bfnrt') SHORT_ESCAPE[c.charCodeAt(0)] = 1;

/** Keys an object may have for this check to say yes. */
const MAX_KEYS = 64;

const IN_OBJECT = 1;
const IN_ARRAY = 2;

/**
 * Whether UTF-8 JSON is already written exactly as JSON.stringify(JSON.parse(text)) would write
 * it, recognised in one pass over the bytes with no string or object made. A bulk seed written
 * by any JSON.stringify is in this form, so its lines can be stored as they are instead of being
 * parsed and serialised again. The check is strict and only ever says yes when sure: anything
 * it does not recognise (white space, a \u escape, a number in another form, a key that is an
 * array index, a key twice in one object, an object of more than 64 keys, a byte sequence that
 * is not UTF-8) is a no, and the
 * caller parses that text the ordinary way, which also gives the errors.
 */
export class CanonicalJson {
  // Reused between calls: the kind of each open container and, per open object, its keys so far.
  private kinds = new Uint8Array(64);
  private keyBase = new Int32Array(64);
  private keyStart = new Int32Array(256);
  private keyEnd = new Int32Array(256);

  /**
   * Where the canonical value starting at `from` ends (the index after it), or -1. `maxDepth`
   * bounds how many objects and arrays may be open at once inside it.
   */
  valueEnd(b: Uint8Array, from: number, maxDepth: number): number {
    const n = b.length;
    let i = from;
    let depth = 0;
    let keys = 0;
    let highBytes = false;
    let expectKey = false;
    for (;;) {
      if (i >= n) return -1;
      let c = b[i] as number;
      if (expectKey) {
        // A key: a string that is no array index (JSON.stringify moves those first), new in its object.
        if (c !== QUOTE) return -1;
        const first = b[i + 1] as number;
        if (first >= ZERO && first <= NINE) return -1;
        const end = stringEnd(b, i);
        if (end < 0) return -1;
        if (end > i + 2 && hasHighByte(b, i + 1, end - 1)) highBytes = true;
        const base = this.keyBase[depth - 1] as number;
        // Each key is compared with those before it: past a few dozen, leave the object to the
        // parser rather than spend quadratic time on a hostile one.
        if (keys - base === MAX_KEYS || this.repeatsKey(b, base, keys, i + 1, end - 1)) return -1;
        if (keys === this.keyStart.length) this.growKeys();
        this.keyStart[keys] = i + 1;
        this.keyEnd[keys] = end - 1;
        keys++;
        if (b[end] !== COLON) return -1;
        i = end + 1;
        expectKey = false;
        continue;
      }
      // A value.
      if (c === OPEN_BRACE || c === OPEN_BRACKET) {
        if (depth === maxDepth) return -1;
        if (depth === this.kinds.length) this.growLevels();
        const object = c === OPEN_BRACE;
        this.kinds[depth] = object ? IN_OBJECT : IN_ARRAY;
        this.keyBase[depth] = keys;
        depth++;
        i++;
        if (b[i] === (object ? CLOSE_BRACE : CLOSE_BRACKET)) {
          depth--;
          i++;
        } else {
          expectKey = object;
          continue;
        }
      } else if (c === QUOTE) {
        const end = stringEnd(b, i);
        if (end < 0) return -1;
        if (hasHighByte(b, i + 1, end - 1)) highBytes = true;
        i = end;
      } else if (c === MINUS || (c >= ZERO && c <= NINE)) {
        i = numberEnd(b, i);
        if (i < 0) return -1;
      } else {
        i = literalEnd(b, i);
        if (i < 0) return -1;
      }
      // After a value: the end of the whole, a comma, or the close of its container.
      for (;;) {
        if (depth === 0) return highBytes && !isUtf8(b.subarray(from, i)) ? -1 : i;
        c = b[i] as number;
        const kind = this.kinds[depth - 1];
        if (c === COMMA) {
          i++;
          expectKey = kind === IN_OBJECT;
          break;
        }
        if (c !== (kind === IN_OBJECT ? CLOSE_BRACE : CLOSE_BRACKET)) return -1;
        depth--;
        keys = this.keyBase[depth] as number;
        i++;
      }
    }
  }

  private repeatsKey(b: Uint8Array, base: number, keys: number, start: number, end: number): boolean {
    const length = end - start;
    for (let k = base; k < keys; k++) {
      const s = this.keyStart[k] as number;
      if ((this.keyEnd[k] as number) - s !== length) continue;
      let same = true;
      for (let j = 0; j < length; j++) {
        if (b[s + j] !== b[start + j]) {
          same = false;
          break;
        }
      }
      if (same) return true;
    }
    return false;
  }

  private growLevels(): void {
    this.kinds = doubled(this.kinds);
    this.keyBase = doubled(this.keyBase);
  }

  private growKeys(): void {
    this.keyStart = doubled(this.keyStart);
    this.keyEnd = doubled(this.keyEnd);
  }
}

function doubled<T extends Uint8Array | Int32Array>(array: T): T {
  const next = new (array.constructor as new (length: number) => T)(array.length * 2);
  next.set(array);
  return next;
}

/** The index after the string opening at `i` (a quote), or -1 if it is not in canonical form. */
export function stringEnd(b: Uint8Array, i: number): number {
  const n = b.length;
  for (i++; i < n; i++) {
    const c = b[i] as number;
    if (c === QUOTE) return i + 1;
    if (c < 0x20) return -1;
    if (c === BACKSLASH) {
      const next = b[i + 1] as number;
      if (next >= 128 || SHORT_ESCAPE[next] !== 1) return -1;
      i++;
    }
  }
  return -1;
}

function hasHighByte(b: Uint8Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if ((b[i] as number) >= 0x80) return true;
  return false;
}

/**
 * The index after the number at `i`, or -1 unless it is written as JSON.stringify writes the
 * number it stands for. A plain decimal is, when it has at most 15 significant digits (a double
 * keeps 15, so the shortest text that reads back as the same number is that one), no leading
 * zero, no trailing zero after its point, is not -0, and is not below 1e-6 (written with an
 * exponent then); any other form is compared with its own serialisation.
 */
export function numberEnd(b: Uint8Array, i: number): number {
  const start = i;
  const n = b.length;
  if (b[i] === MINUS) i++;
  const intStart = i;
  if (b[i] === ZERO) i++;
  else while (i < n && isDigit(b[i] as number)) i++;
  const intDigits = i - intStart;
  if (intDigits === 0) return -1;
  let fracDigits = 0;
  let fracZeros = 0;
  if (b[i] === POINT) {
    i++;
    const fracStart = i;
    while (i < n && isDigit(b[i] as number)) i++;
    fracDigits = i - fracStart;
    if (fracDigits === 0) return -1;
    while (fracZeros < fracDigits && b[fracStart + fracZeros] === ZERO) fracZeros++;
    if (b[i - 1] === ZERO) return -1;
  }
  const intIsZero = intDigits === 1 && b[intStart] === ZERO;
  if (b[i] !== LOWER_E && b[i] !== UPPER_E) {
    if (intIsZero && fracDigits === 0) return intStart > start ? -1 : i;
    const significant = intIsZero ? fracDigits - fracZeros : intDigits + fracDigits;
    if (significant <= 15 && (!intIsZero || fracZeros <= 5)) return i;
  } else {
    i++;
    if (b[i] === PLUS || b[i] === MINUS) i++;
    const expStart = i;
    while (i < n && isDigit(b[i] as number)) i++;
    if (i === expStart) return -1;
  }
  const text = Buffer.from(b.buffer, b.byteOffset + start, i - start).toString('latin1');
  return String(Number(text)) === text ? i : -1;
}

const isDigit = (c: number) => c >= ZERO && c <= NINE;

const LITERALS = ['true', 'false', 'null'].map((word) => Buffer.from(word, 'latin1'));

function literalEnd(b: Uint8Array, i: number): number {
  for (const word of LITERALS) {
    const end = matchAt(b, i, word);
    if (end >= 0) return end;
  }
  return -1;
}

/** The index after `word` if `b` has it at `at`, else -1. */
export function matchAt(b: Uint8Array, at: number, word: Uint8Array): number {
  if (at + word.length > b.length) return -1;
  for (let j = 0; j < word.length; j++) if (b[at + j] !== word[j]) return -1;
  return at + word.length;
}
