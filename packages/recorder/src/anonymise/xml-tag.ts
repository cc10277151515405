import { malformed } from './xml-text';

export interface XmlAttribute {
  /** The whitespace before the attribute, kept as it was. */
  readonly lead: string;
  readonly name: string;
  /** `=` with whatever whitespace surrounds it. */
  readonly equals: string;
  readonly quote: '"' | "'";
  /** The value as written, entities undecoded. */
  readonly raw: string;
}

export interface XmlStartTag {
  readonly name: string;
  readonly attributes: readonly XmlAttribute[];
  /** Everything after the last attribute: whitespace, then `>` or `/>`. */
  readonly tail: string;
  readonly selfClosing: boolean;
  /** Index just past the tag. */
  readonly end: number;
}

const NAME = /[^\s/>=<"']+/y;
const SPACE = /\s*/y;

function match(re: RegExp, text: string, at: number): string {
  re.lastIndex = at;
  return re.exec(text)?.[0] ?? '';
}

/** Reads the start tag at `lt` keeping every byte, so a rewritten tag differs only where changed. */
export function readStartTag(xml: string, lt: number): XmlStartTag {
  const name = match(NAME, xml, lt + 1);
  if (name === '') throw malformed(`a tag without a name at character ${lt}`);
  const attributes: XmlAttribute[] = [];
  let j = lt + 1 + name.length;
  for (;;) {
    const lead = match(SPACE, xml, j);
    const at = j + lead.length;
    if (xml[at] === '>' || xml.startsWith('/>', at)) {
      const selfClosing = xml[at] === '/';
      const end = at + (selfClosing ? 2 : 1);
      return { name, attributes, tail: xml.slice(j, end), selfClosing, end };
    }
    if (at >= xml.length) throw malformed(`unterminated tag <${name}`);
    if (lead === '') throw malformed(`attributes of <${name}> not separated by whitespace`);
    const attr = match(NAME, xml, at);
    if (attr === '') throw malformed(`unexpected "${xml[at]}" in <${name}>`);
    const before = match(SPACE, xml, at + attr.length);
    const eq = at + attr.length + before.length;
    if (xml[eq] !== '=') throw malformed(`attribute ${attr} of <${name}> has no value`);
    const after = match(SPACE, xml, eq + 1);
    const open = eq + 1 + after.length;
    const quote = xml[open];
    if (quote !== '"' && quote !== "'") throw malformed(`attribute ${attr} of <${name}> is not quoted`);
    const close = xml.indexOf(quote, open + 1);
    if (close === -1) throw malformed(`unterminated value of ${attr} in <${name}>`);
    const raw = xml.slice(open + 1, close);
    if (raw.includes('<')) throw malformed(`"<" in the value of ${attr} in <${name}>`);
    attributes.push({ lead, name: attr, equals: `${before}=${after}`, quote, raw });
    j = close + 1;
  }
}
