/**
 * The readings of a text a secret is searched in (secret-forms.ts): as written, and with layers
 * of escaping undone, the way data nests them (an XML payload in a JSON string in a JSON line).
 */

const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  quot: '"',
  amp: '&',
  lt: '<',
  gt: '>',
  apos: "'",
};
const JSON_ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

type Decoder = 'all' | 'json';

/** Layers of escaping undone at most: a STOMP body's XML in a JSON string in a JSON line is three. */
const MAX_DEPTH = 3;
/**
 * Readings of one text at most, so a text escaped every way at once costs a bounded amount:
 * every reading of an ordinary line, and the breadth-first first ones of a very large one.
 */
const MAX_LAYERS = 16;
const MAX_LAYERS_LARGE = 8;
const LARGE_TEXT = 64 * 1024;

const BACKSLASH = 0x5c;
const AMP = 0x26;
const PERCENT = 0x25;
const HEX = /^[0-9a-fA-F]+$/;
const XML_REFERENCE = /^&(?:#([0-9]{1,7})|#[xX]([0-9a-fA-F]{1,6})|(quot|amp|lt|gt|apos));/;

function hexPair(text: string, at: number): number {
  const pair = text.slice(at + 1, at + 3);
  return pair.length === 2 && HEX.test(pair) ? parseInt(pair, 16) : -1;
}

/**
 * One escape at `at` (a backslash, `&` or `%`): what it stands for and its length, or undefined
 * when it is no escape. JSON escapes (`\"`, `\u00e4`); with `all` also XML references
 * (`&amp;`, `&#228;`, `&#xE4;`) and runs of percent-encoded bytes, decoded together so UTF-8
 * survives.
 */
function escapeAt(text: string, at: number, decoder: Decoder): { value: string; length: number } | undefined {
  const c = text.charCodeAt(at);
  if (c === BACKSLASH) {
    const next = text[at + 1];
    if (next === 'u') {
      const hex = text.slice(at + 2, at + 6);
      return hex.length === 4 && HEX.test(hex)
        ? { value: String.fromCharCode(parseInt(hex, 16)), length: 6 }
        : undefined;
    }
    const value = next === undefined ? undefined : JSON_ESCAPES[next];
    return value === undefined ? undefined : { value, length: 2 };
  }
  if (decoder === 'json') return undefined;
  if (c === AMP) {
    const m = XML_REFERENCE.exec(text.slice(at, at + 12));
    if (m === null) return undefined;
    const code = m[1] !== undefined ? Number(m[1]) : m[2] !== undefined ? parseInt(m[2], 16) : -1;
    if (code > 0x10ffff) return undefined;
    const value = code >= 0 ? String.fromCodePoint(code) : (NAMED_ENTITIES[m[3] as string] as string);
    return { value, length: m[0].length };
  }
  const bytes: number[] = [];
  let end = at;
  for (
    let byte = hexPair(text, end);
    text.charCodeAt(end) === PERCENT && byte >= 0;
    byte = hexPair(text, end)
  ) {
    bytes.push(byte);
    end += 3;
  }
  return bytes.length === 0 ? undefined : { value: Buffer.from(bytes).toString('utf8'), length: end - at };
}

const SPECIAL = { all: /[\\&%]/g, json: /\\/g } as const;

/** The text with one layer of escaping undone (lenient: what is no escape stays as it is). */
export function decodeOnce(text: string, decoder: Decoder = 'all'): string {
  const special = SPECIAL[decoder];
  special.lastIndex = 0;
  if (!special.test(text)) return text;
  const parts: string[] = [];
  let copied = 0;
  special.lastIndex = 0;
  for (let m = special.exec(text); m !== null; m = special.exec(text)) {
    const escape = escapeAt(text, m.index, decoder);
    if (escape === undefined) continue;
    parts.push(text.slice(copied, m.index), escape.value);
    copied = m.index + escape.length;
    special.lastIndex = copied;
  }
  parts.push(text.slice(copied));
  return parts.join('');
}

/** One reading of a text: as written, or with layers of escaping undone. */
export interface DecodedLayer {
  /** `as written`, `unescaped all`, `unescaped json, then all`..., with `, NFC` when normalised. */
  readonly layer: string;
  readonly text: string;
  /** How many layers of escaping were undone. */
  readonly depth: number;
}

/**
 * The text as written and its readings with layers of escaping undone, breadth first: each step
 * undoes one layer of every escaping at once (`all`) or of JSON escapes alone (`json`, which
 * keeps an escape-looking text inside a JSON string as it was, and so a case-changed secret's
 * `&AMP;`); each reading also in Unicode NFC when that differs. The same text is read once.
 */
export function decodedLayers(text: string): DecodedLayer[] {
  const layers: DecodedLayer[] = [];
  const seen = new Set<string>();
  const max = text.length > LARGE_TEXT ? MAX_LAYERS_LARGE : MAX_LAYERS;
  const add = (layer: string, value: string, depth: number): void => {
    if (seen.has(value) || layers.length >= max) return;
    seen.add(value);
    layers.push({ layer, text: value, depth });
    // A combining accent (a + U+0308) spells the same secret as its composed form (ä).
    if (/[^\p{ASCII}]/u.test(value)) {
      const nfc = value.normalize('NFC');
      if (!seen.has(nfc) && layers.length < max) {
        seen.add(nfc);
        layers.push({ layer: `${layer}, NFC`, text: nfc, depth });
      }
    }
  };
  add('as written', text, 0);
  for (let i = 0; i < layers.length; i++) {
    const from = layers[i] as DecodedLayer;
    if (from.depth >= MAX_DEPTH) continue;
    for (const decoder of ['all', 'json'] as const) {
      const next = decodeOnce(from.text, decoder);
      if (next === from.text) continue;
      const kind = decoder === 'all' ? 'json+xml+url' : 'json';
      add(from.depth === 0 ? `unescaped ${kind}` : `${from.layer}, then ${kind}`, next, from.depth + 1);
    }
  }
  return layers;
}
