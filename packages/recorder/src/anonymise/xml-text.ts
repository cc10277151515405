import { recorderError } from '../errors';

const NAMED: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/**
 * The text an attribute value or a text node stands for. Only XML's predefined entities and
 * character references are defined without a DTD (the legacy simulator refuses anything else),
 * so any other reference is malformed rather than guessed at.
 */
export function decodeXmlText(raw: string): string {
  if (!raw.includes('&')) return raw;
  return raw.replace(/&([^;&\s]*);?/g, (whole, name: string) => {
    if (!whole.endsWith(';')) throw malformed(`"&" without a reference`);
    if (name.startsWith('#')) {
      const code = name[1] === 'x' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      if (!Number.isInteger(code) || code <= 0 || code > 0x10ffff) throw malformed(`bad reference &${name};`);
      return String.fromCodePoint(code);
    }
    const char = NAMED[name];
    if (char === undefined) throw malformed(`undefined entity &${name};`);
    return char;
  });
}

/** Text escaped for an attribute value between `quote`s, or for a text node when quote is undefined. */
export function encodeXmlText(text: string, quote?: '"' | "'"): string {
  let out = text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  if (quote === '"') out = out.replace(/"/g, '&quot;');
  if (quote === "'") out = out.replace(/'/g, '&apos;');
  return out;
}

export function malformed(why: string) {
  return recorderError('ANONYMISE_XML_MALFORMED', `XML not well-formed: ${why}`);
}
