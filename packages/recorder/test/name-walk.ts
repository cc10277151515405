/**
 * Test helpers that find name values by the fields the bundled day uses, independently of the
 * anonymiser's own rules, so a test can put the originals back and compare bytes.
 */
export const NAME_FIELDS = [
  'horse',
  'driver',
  'jockey',
  'trainer',
  'owner',
  'breeder',
  'originalDriver',
  'originalJockey',
  'stable',
] as const;
const NAME_SET = new Set<string>(NAME_FIELDS);

/** Every string under a name field of a JSON value, in walk order. */
export function jsonNames(value: unknown, fields: ReadonlySet<string> = NAME_SET): string[] {
  const found: string[] = [];
  const walk = (v: unknown, named: boolean) => {
    if (typeof v === 'string') {
      if (named) found.push(v);
    } else if (Array.isArray(v)) {
      v.forEach((item) => walk(item, named));
    } else if (typeof v === 'object' && v !== null) {
      for (const [key, item] of Object.entries(v)) walk(item, fields.has(key));
    }
  };
  walk(value, false);
  return found;
}

/** `value` with the strings under name fields replaced, in walk order, by `names`. */
export function withJsonNames(
  value: unknown,
  names: string[],
  fields: ReadonlySet<string> = NAME_SET,
): unknown {
  const queue = [...names];
  const walk = (v: unknown, named: boolean): unknown => {
    if (typeof v === 'string') return named ? queue.shift() : v;
    if (Array.isArray(v)) return v.map((item) => walk(item, named));
    if (typeof v === 'object' && v !== null) {
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(v)) {
        Object.defineProperty(out, key, {
          value: walk(item, fields.has(key)),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return out;
    }
    return v;
  };
  return walk(value, false);
}

const XML_NAME_ATTRIBUTE = new RegExp(`(\\s(?:${NAME_FIELDS.join('|')})\\s*=\\s*)(["'])(.*?)\\2`, 'g');

/** The raw (escaped) values of name attributes in an XML document, in document order. */
export function xmlNames(xml: string): string[] {
  return [...xml.matchAll(XML_NAME_ATTRIBUTE)].map((m) => m[3]!);
}

/** The document with its name attribute values replaced, in order, by `raw` (already escaped). */
export function withXmlNames(xml: string, raw: string[]): string {
  const queue = [...raw];
  return xml.replace(
    XML_NAME_ATTRIBUTE,
    (_all, head: string, quote: string) => `${head}${quote}${queue.shift()}${quote}`,
  );
}

export function decodeXml(raw: string): string {
  return raw
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#(\d+);/g, (_m, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&amp;/g, '&');
}

export function escapeXml(text: string, quote = '"'): string {
  const out = text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return quote === '"' ? out.replace(/"/g, '&quot;') : out.replace(/'/g, '&apos;');
}
