import { XMLValidator } from 'fast-xml-parser';
import { cutShort, EXCERPT_CHARS } from '@racedata/core';
import { legacySimError } from './errors';

/** Anything outside XML 1.0's Char production (section 2.2): NUL, most C0 controls, lone surrogates, U+FFFE/F. */
const FORBIDDEN_CHAR = /[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

const PREDEFINED_REFERENCE = /^&(?:amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);/;

interface Scan {
  doctype: boolean;
  problem: string | undefined;
}

/**
 * What fast-xml-parser's validator lets through but XML 1.0 does not: a DOCTYPE (refused
 * outright, so no entity can ever be expanded), entity references other than the predefined
 * ones and character references (undefined without a DTD), and anything but exactly one root
 * element. Markup syntax itself is left to the validator.
 */
function scan(xml: string): Scan {
  let depth = 0;
  let roots = 0;
  let i = 0;
  const fail = (problem: string): Scan => ({ doctype: false, problem });
  while (i < xml.length) {
    const lt = xml.indexOf('<', i);
    const textEnd = lt === -1 ? xml.length : lt;
    const text = xml.slice(i, textEnd);
    if (depth === 0 && text.replace(/^\uFEFF/, '').trim() !== '')
      return fail('text outside the root element');
    const bad = badReference(text);
    if (bad) return fail(bad);
    if (lt === -1) break;
    const opens = (prefix: string) => xml.startsWith(prefix, lt);
    if (opens('<!--')) {
      i = skipPast(xml, lt, '-->');
    } else if (opens('<![CDATA[')) {
      i = skipPast(xml, lt, ']]>');
    } else if (opens('<?')) {
      i = skipPast(xml, lt, '?>');
    } else if (/^<!doctype/i.test(xml.slice(lt, lt + 9))) {
      return { doctype: true, problem: 'DOCTYPE declarations are not accepted' };
    } else if (opens('<!')) {
      return fail('unexpected markup declaration');
    } else {
      const end = tagEnd(xml, lt);
      if (end === -1) return fail('unterminated tag');
      const attributes = xml.slice(lt, end);
      const badAttr = badReference(attributes);
      if (badAttr) return fail(badAttr);
      if (xml[lt + 1] === '/') {
        depth -= 1;
      } else if (xml[end - 1] !== '/') {
        if (depth === 0) roots += 1;
        depth += 1;
      } else if (depth === 0) {
        roots += 1;
      }
      if (roots > 1) return fail('more than one root element');
      i = end + 1;
    }
  }
  return { doctype: false, problem: roots === 0 ? 'no root element' : undefined };
}

function skipPast(xml: string, from: number, terminator: string): number {
  const at = xml.indexOf(terminator, from);
  return at === -1 ? xml.length : at + terminator.length;
}

/** Index of the `>` closing the tag at `lt`, skipping quoted attribute values. */
function tagEnd(xml: string, lt: number): number {
  let quote: string | undefined;
  for (let j = lt + 1; j < xml.length; j++) {
    const ch = xml[j];
    if (quote) {
      if (ch === quote) quote = undefined;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
    } else if (ch === '>') {
      return j;
    }
  }
  return -1;
}

/** A character reference must name a character XML 1.0 allows (&#0; is not one). */
function badCharacterReference(reference: string): string | undefined {
  const digits = /^&#(x[0-9a-fA-F]+|[0-9]+);/.exec(reference)?.[1];
  if (digits === undefined) return undefined;
  const code = digits.startsWith('x') ? parseInt(digits.slice(1), 16) : parseInt(digits, 10);
  if (code <= 0x10ffff && !FORBIDDEN_CHAR.test(String.fromCodePoint(code))) return undefined;
  return `character reference "${reference.slice(0, reference.indexOf(';') + 1)}" names a character XML 1.0 does not allow`;
}

function badReference(text: string): string | undefined {
  let at = text.indexOf('&');
  while (at !== -1) {
    if (!PREDEFINED_REFERENCE.test(text.slice(at, at + 12))) {
      const shown = /^&[^\s;<&]{0,20};?/.exec(text.slice(at))?.[0] ?? '&';
      return `undefined entity reference "${shown}" (only &amp; &lt; &gt; &quot; &apos; and &#...; are defined)`;
    }
    const bad = badCharacterReference(text.slice(at, at + 12));
    if (bad) return bad;
    at = text.indexOf('&', at + 1);
  }
  return undefined;
}

/**
 * Throws EMPTY_BODY, XML_DOCTYPE_FORBIDDEN or INVALID_XML unless `xml` is one well-formed document.
 * Messages quote the document only in short excerpts.
 */
export function assertWellFormedXml(xml: string): void {
  if (xml.trim() === '')
    throw legacySimError('EMPTY_BODY', 'request body is empty; expected an XML document');
  const forbidden = FORBIDDEN_CHAR.exec(xml);
  if (forbidden) {
    const code = (forbidden[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
    throw legacySimError(
      'INVALID_XML',
      `body contains U+${code} at character ${forbidden.index}, which XML 1.0 does not allow`,
    );
  }
  const found = scan(xml);
  if (found.doctype) {
    throw legacySimError('XML_DOCTYPE_FORBIDDEN', 'DOCTYPE and entity declarations are not accepted');
  }
  const result = XMLValidator.validate(xml);
  if (result !== true) {
    const { msg, line, col } = result.err as { msg: string; line: number; col?: number };
    const where = col === undefined ? `line ${line}` : `line ${line}, column ${col}`;
    throw legacySimError('INVALID_XML', `body is not well-formed XML: ${cutQuotesShort(msg)} (${where})`);
  }
  if (found.problem) throw legacySimError('INVALID_XML', `body is not well-formed XML: ${found.problem}`);
}

/** The XML parser's message, which quotes the document in '...': each quote cut short, and the whole. */
function cutQuotesShort(message: string): string {
  const cut = message.replace(/'([^']*)'/g, (_all, quoted: string) => `'${cutShort(quoted)}'`);
  return cutShort(cut, 4 * EXCERPT_CHARS);
}
