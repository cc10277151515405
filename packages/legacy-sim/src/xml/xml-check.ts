import { cutShort } from '@racedata/core';
import { legacySimError } from '../errors';
import {
  CR,
  isForbiddenUnit,
  isHighSurrogate,
  isLowSurrogate,
  isNameChar,
  isNameHighSurrogate,
  isNameStart,
  isSpace,
  isXmlChar,
  LF,
  SPACE,
  TAB,
} from './xml-chars';

const LT = 0x3c;
const GT = 0x3e;
const AMP = 0x26;
const SLASH = 0x2f;
const BANG = 0x21;
const QUESTION = 0x3f;
const EQUALS = 0x3d;
const QUOTE = 0x22;
const APOSTROPHE = 0x27;
const SEMICOLON = 0x3b;
const HASH = 0x23;
const LOWER_X = 0x78;
const BOM = 0xfeff;

const PREDEFINED_ENTITIES = new Set(['amp', 'lt', 'gt', 'quot', 'apos']);
/** Digits a character reference may have: U+10FFFF is 1114111, seven of them. */
const MAX_REFERENCE_DIGITS = 10;
/** Attributes of one tag compared by scanning a list; a set beyond (a tag may have thousands). */
const LISTED_ATTRIBUTES = 8;

// The characters each context must look at: markup, references, and code units that are not a
// Char on their own (C0 controls but tab, LF and CR; surrogates, judged in pairs; U+FFFE/F).
/* eslint-disable no-control-regex -- finding control characters is their purpose */
const IN_TEXT = /[<&\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]/g;
const IN_VALUE = /[&\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]/g;
const NEEDS_LOOK = /[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]/g;
/* eslint-enable no-control-regex */
/** Runs longer than this are searched by those expressions rather than a character at a time. */
const SHORT_RUN = 48;

/** A well-formedness problem at a position; reported with its line and column. */
class Malformed {
  constructor(
    readonly problem: string,
    readonly at: number,
  ) {}
}

const short = (name: string) => cutShort(name);

/**
 * XML 1.0 well-formedness of one document, checked a slice at a time (step), so a megabyte
 * document never holds the event loop for its whole length (checkXmlYielding). One pass over
 * the text: characters (section 2.2: NUL, most C0 controls, lone surrogates and U+FFFE/F are
 * refused), names, start and end tags that nest and match, quoted attribute values without
 * repeats, references (only the five predefined entities and character references naming a
 * Char: there is no DTD, so nothing else is defined), exactly one root element and nothing but
 * whitespace, comments and processing instructions around it. A DOCTYPE is refused outright
 * (XML_DOCTYPE_FORBIDDEN), so no entity is ever expanded.
 *
 * Kept as lenient as the validator this replaced where XML 1.0 is stricter but no document's
 * meaning changes: `]]>` in text, `--` inside a comment, `<` inside an attribute value, a CDATA
 * section outside the root element.
 */
export class XmlCheck {
  private at = 0;
  /** Names of the elements open at `at`, and where each started. */
  private readonly open: string[] = [];
  private readonly openAt: number[] = [];
  private roots = 0;
  private done = false;

  constructor(private readonly xml: string) {
    if (xml.charCodeAt(0) === BOM) this.at = 1;
  }

  /**
   * Checks about `budget` more characters (a tag, comment or section is always checked whole);
   * true once the whole document has been. Throws INVALID_XML or XML_DOCTYPE_FORBIDDEN.
   */
  step(budget: number): boolean {
    if (this.done) return true;
    const { xml } = this;
    const stop = Math.min(xml.length, this.at + budget);
    let i = this.at;
    try {
      while (i < stop) i = xml.charCodeAt(i) === LT ? this.markup(i) : this.text(i);
      this.at = i;
      if (i < xml.length) return false;
      this.finish();
    } catch (err) {
      throw err instanceof Malformed ? this.invalid(err) : err;
    }
    this.done = true;
    return true;
  }

  /** Character data, or the whitespace around the root, from `from` up to the next `<`. */
  private text(from: number): number {
    const { xml } = this;
    if (this.open.length === 0) return this.aroundRoot(from);
    let i = from;
    for (;;) {
      i = this.nextInText(i);
      if (i >= xml.length) return i;
      const c = xml.charCodeAt(i);
      if (c === LT) return i;
      i = c === AMP ? this.reference(i) : this.unit(i) + 1;
    }
  }

  /**
   * The next character of a text run that needs a look: markup, a reference, or a code unit that
   * is not a Char on its own. A short run is read a character at a time; a long one by a regular
   * expression, which V8 runs several times faster than a loop over char codes but which costs
   * more than such a loop to start.
   */
  private nextInText(from: number): number {
    const { xml } = this;
    const end = Math.min(xml.length, from + SHORT_RUN);
    for (let i = from; i < end; i++) {
      const c = xml.charCodeAt(i);
      if (c === LT || c === AMP || c >= 0xd800 || (c < SPACE && c !== LF && c !== TAB && c !== CR)) return i;
    }
    return end === xml.length ? end : find(IN_TEXT, xml, end, xml.length);
  }

  /** Only whitespace may stand between markup outside the root element. */
  private aroundRoot(from: number): number {
    const { xml } = this;
    // A byte-order mark where a document was joined to another, as the validator this replaced
    // let through.
    const i = this.skipSpace(xml.charCodeAt(from) === BOM ? from + 1 : from);
    if (i >= xml.length || xml.charCodeAt(i) === LT) return i;
    this.unit(i);
    throw new Malformed('text outside the root element', i);
  }

  private markup(lt: number): number {
    const { xml } = this;
    const next = xml.charCodeAt(lt + 1);
    if (next === SLASH) return this.endTag(lt);
    if (next === QUESTION) return this.instruction(lt);
    if (next !== BANG) return this.startTag(lt);
    if (xml.startsWith('<!--', lt)) return this.until(lt + 4, '-->', 'comment', lt);
    if (xml.startsWith('<![CDATA[', lt)) return this.until(lt + 9, ']]>', 'CDATA section', lt);
    if (/^<!doctype/i.test(xml.slice(lt, lt + 9))) {
      throw legacySimError('XML_DOCTYPE_FORBIDDEN', 'DOCTYPE and entity declarations are not accepted');
    }
    throw new Malformed('unexpected markup declaration', lt);
  }

  /** A comment or CDATA section: any characters up to its terminator. */
  private until(from: number, terminator: string, what: string, lt: number): number {
    const end = this.xml.indexOf(terminator, from);
    if (end < 0) throw new Malformed(`unterminated ${what}`, lt);
    this.chars(from, end);
    return end + terminator.length;
  }

  private instruction(lt: number): number {
    const { xml } = this;
    const end = xml.indexOf('?>', lt + 2);
    if (end < 0) throw new Malformed('unterminated processing instruction', lt);
    // The target `xml` is the XML declaration's, which only the document's first bytes may hold.
    if (/^xml[\s?]/i.test(xml.slice(lt + 2, lt + 6)) && lt !== (xml.charCodeAt(0) === BOM ? 1 : 0)) {
      throw new Malformed('XML declaration allowed only at the start of the document', lt);
    }
    this.chars(lt + 2, end);
    return end + 2;
  }

  private startTag(lt: number): number {
    const { xml } = this;
    const nameAt = lt + 1;
    if (!this.nameStartsAt(nameAt)) throw this.unexpected(nameAt, "'<' not followed by a tag name");
    const nameEnd = this.nameEnd(nameAt);
    const name = xml.slice(nameAt, nameEnd);
    let listed: string[] | undefined;
    let seen: Set<string> | undefined;
    let i = nameEnd;
    for (;;) {
      const spaced = isSpace(xml.charCodeAt(i));
      i = this.skipSpace(i);
      const c = xml.charCodeAt(i);
      if (c === GT) {
        this.element(name, lt, true);
        return i + 1;
      }
      if (c === SLASH) {
        if (xml.charCodeAt(i + 1) !== GT)
          throw this.unexpected(i + 1, `'/' in tag <${short(name)}> not followed by '>'`);
        this.element(name, lt, false);
        return i + 2;
      }
      if (i >= xml.length) throw new Malformed(`unterminated tag <${short(name)}>`, lt);
      if (!spaced) throw this.unexpected(i, `no whitespace before an attribute of <${short(name)}>`);
      const attributeEnd = this.attribute(i, name);
      const attribute = xml.slice(i, this.nameEnd(i));
      if (seen === undefined && (listed ??= []).length < LISTED_ATTRIBUTES) {
        if (listed.includes(attribute)) throw this.repeated(attribute, name, i);
        listed.push(attribute);
      } else {
        seen ??= new Set(listed);
        if (seen.has(attribute)) throw this.repeated(attribute, name, i);
        seen.add(attribute);
      }
      i = attributeEnd;
    }
  }

  /** Name, `=`, quoted value; returns the index after the closing quote. */
  private attribute(at: number, tag: string): number {
    const { xml } = this;
    if (!this.nameStartsAt(at)) throw this.unexpected(at, `invalid attribute name in <${short(tag)}>`);
    const nameEnd = this.nameEnd(at);
    const name = short(xml.slice(at, nameEnd));
    let i = this.skipSpace(nameEnd);
    if (xml.charCodeAt(i) !== EQUALS) throw this.unexpected(i, `attribute '${name}' has no value`);
    i = this.skipSpace(i + 1);
    const quote = xml.charCodeAt(i);
    if (quote !== QUOTE && quote !== APOSTROPHE) {
      throw this.unexpected(i, `the value of attribute '${name}' is not quoted`);
    }
    const close = xml.indexOf(quote === QUOTE ? '"' : "'", i + 1);
    if (close < 0) throw new Malformed(`the value of attribute '${name}' is never closed`, i);
    const long = close - i > SHORT_RUN;
    for (let j = i + 1; j < close;) {
      if (long) j = find(IN_VALUE, xml, j, close);
      const c = xml.charCodeAt(j);
      if (c === AMP) j = this.reference(j);
      else if (c < SPACE || c >= 0xd800) j = this.unit(j) + 1;
      else j++;
    }
    return close + 1;
  }

  private endTag(lt: number): number {
    const { xml } = this;
    const nameAt = lt + 2;
    if (!this.nameStartsAt(nameAt)) throw this.unexpected(nameAt, "'</' not followed by a tag name");
    const nameEnd = this.nameEnd(nameAt);
    const name = xml.slice(nameAt, nameEnd);
    const end = this.skipSpace(nameEnd);
    if (xml.charCodeAt(end) !== GT)
      throw this.unexpected(end, `closing tag </${short(name)}> not ended by '>'`);
    const open = this.open.pop();
    this.openAt.pop();
    if (open === undefined) throw new Malformed(`closing tag </${short(name)}> has no opening tag`, lt);
    if (open !== name) {
      throw new Malformed(`closing tag </${short(name)}> does not match <${short(open)}>`, lt);
    }
    return end + 1;
  }

  /** A start tag (`opens`) or an empty-element tag was read at `lt`. */
  private element(name: string, lt: number, opens: boolean): void {
    if (this.open.length === 0 && ++this.roots > 1) throw new Malformed('more than one root element', lt);
    if (!opens) return;
    this.open.push(name);
    this.openAt.push(lt);
  }

  /** `&` at `amp`: a predefined entity or a character reference; returns the index after `;`. */
  private reference(amp: number): number {
    const { xml } = this;
    if (xml.charCodeAt(amp + 1) === HASH) {
      const hex = xml.charCodeAt(amp + 2) === LOWER_X;
      const from = amp + (hex ? 3 : 2);
      let end = from;
      while (end - from <= MAX_REFERENCE_DIGITS && isDigit(xml.charCodeAt(end), hex)) end++;
      if (end === from || xml.charCodeAt(end) !== SEMICOLON) throw this.undefinedReference(amp);
      if (!isXmlChar(parseInt(xml.slice(from, end), hex ? 16 : 10))) {
        throw new Malformed(
          `character reference "${xml.slice(amp, end + 1)}" names a character XML 1.0 does not allow`,
          amp,
        );
      }
      return end + 1;
    }
    if (!this.nameStartsAt(amp + 1)) throw this.undefinedReference(amp);
    const end = this.nameEnd(amp + 1);
    if (xml.charCodeAt(end) !== SEMICOLON || !PREDEFINED_ENTITIES.has(xml.slice(amp + 1, end))) {
      throw this.undefinedReference(amp);
    }
    return end + 1;
  }

  private finish(): void {
    const last = this.open.length - 1;
    if (last >= 0) {
      throw new Malformed(
        `<${short(this.open[last] as string)}> is never closed`,
        this.openAt[last] as number,
      );
    }
    if (this.roots === 0) throw new Malformed('no root element', this.xml.length);
  }

  /** Checks the characters of [from, to) (a comment, a section, an instruction). */
  private chars(from: number, to: number): void {
    const { xml } = this;
    const long = to - from > SHORT_RUN;
    for (let i = from; i < to;) {
      if (long) i = find(NEEDS_LOOK, xml, i, to);
      const c = xml.charCodeAt(i);
      i = c < SPACE || c >= 0xd800 ? this.unit(i) + 1 : i + 1;
    }
  }

  /** A unit below U+0020 or from U+D800 on at `i`: the index of its character's last unit. */
  private unit(i: number): number {
    const c = this.xml.charCodeAt(i);
    if (c >= SPACE) return this.wide(i);
    if (c !== LF && c !== TAB && c !== CR) this.forbidden(i);
    return i;
  }

  /** A unit from U+D800 on at `i`: the index of its character's last unit. */
  private wide(i: number): number {
    const c = this.xml.charCodeAt(i);
    if (isHighSurrogate(c)) {
      if (isLowSurrogate(this.xml.charCodeAt(i + 1))) return i + 1;
      this.forbidden(i);
    }
    if (isLowSurrogate(c) || isForbiddenUnit(c)) this.forbidden(i);
    return i;
  }

  private nameStartsAt(i: number): boolean {
    const c = this.xml.charCodeAt(i);
    return isNameStart(c) || (isNameHighSurrogate(c) && isLowSurrogate(this.xml.charCodeAt(i + 1)));
  }

  private nameEnd(from: number): number {
    const { xml } = this;
    let i = from;
    for (;;) {
      const c = xml.charCodeAt(i);
      if (isNameChar(c)) i++;
      else if (isNameHighSurrogate(c) && isLowSurrogate(xml.charCodeAt(i + 1))) i += 2;
      else return i;
    }
  }

  private skipSpace(from: number): number {
    let i = from;
    while (isSpace(this.xml.charCodeAt(i))) i++;
    return i;
  }

  /** What is wrong at `i`: a character XML never allows, else `problem`. */
  private unexpected(i: number, problem: string): Malformed {
    if (i < this.xml.length) this.unit(i);
    return new Malformed(i < this.xml.length ? problem : 'the document ends inside a tag', i);
  }

  private repeated(attribute: string, tag: string, at: number): Malformed {
    return new Malformed(`attribute '${short(attribute)}' is repeated in <${short(tag)}>`, at);
  }

  private undefinedReference(amp: number): Malformed {
    const shown = /^&[^\s;<&]{0,20};?/.exec(this.xml.slice(amp, amp + 24))?.[0] ?? '&';
    return new Malformed(
      `undefined entity reference "${shown}" (only &amp; &lt; &gt; &quot; &apos; and &#...; are defined)`,
      amp,
    );
  }

  private forbidden(i: number): never {
    const code = (this.xml.codePointAt(i) ?? 0).toString(16).toUpperCase().padStart(4, '0');
    throw legacySimError(
      'INVALID_XML',
      `body contains U+${code} at character ${i}, which XML 1.0 does not allow`,
    );
  }

  private invalid({ problem, at }: Malformed): Error {
    const { xml } = this;
    let line = 1;
    let lineStart = 0;
    for (let nl = xml.indexOf('\n'); nl >= 0 && nl < at; nl = xml.indexOf('\n', nl + 1)) {
      line++;
      lineStart = nl + 1;
    }
    return legacySimError(
      'INVALID_XML',
      `body is not well-formed XML: ${problem} (line ${line}, column ${at - lineStart + 1})`,
    );
  }
}

/**
 * Where `pattern` (one character, global) next matches from `from`, or `otherwise`: test()
 * leaves lastIndex just past the match without building a match array, which a document of
 * many short text runs would otherwise pay for each one.
 */
function find(pattern: RegExp, text: string, from: number, otherwise: number): number {
  pattern.lastIndex = from;
  return pattern.test(text) ? pattern.lastIndex - 1 : otherwise;
}

function isDigit(c: number, hex: boolean): boolean {
  return (c >= 0x30 && c <= 0x39) || (hex && ((c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46)));
}
