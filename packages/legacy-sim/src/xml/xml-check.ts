import { cutShort } from '@racedata/core';
import { legacySimError } from '../errors';
import { CR, isNameChar, isNameStart, isSpace, isXmlChar, LF, SPACE, TAB } from './xml-chars';
import { codePointAt, hasBomAt, unitsIn } from './utf8-units';

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
/** What reading past the document's end gives: no character class has it. */
const END = -1;
const BOM_BYTES = 3;

const PREDEFINED_ENTITIES = ['amp', 'lt', 'gt', 'quot', 'apos'];
/** Digits a character reference may have: U+10FFFF is 1114111, seven of them. */
const MAX_REFERENCE_DIGITS = 10;
/** Attributes of one tag compared by scanning a list; a set beyond (a tag may have thousands). */
const LISTED_ATTRIBUTES = 8;

/**
 * The bytes each context must look at: markup, references, and the first bytes of characters
 * that may not be a Char. Those are the C0 controls but tab, LF and CR; U+FFFE and U+FFFF, whose
 * sequences start with 0xEF; and surrogates (0xED then 0xA0 or more), which only a string's lone
 * surrogate encoded by utf8Of can hold. Every other byte, continuation bytes included, is read
 * past without a look.
 */
function lookTable(markup: string): Uint8Array {
  const table = new Uint8Array(256);
  for (let c = 0; c < SPACE; c++) if (c !== TAB && c !== LF && c !== CR) table[c] = 1;
  table[0xed] = 1;
  table[0xef] = 1;
  for (const c of markup) table[c.charCodeAt(0)] = 1;
  return table;
}
const IN_TEXT = lookTable('<&');
const IN_VALUE = lookTable('&');
const NEEDS_LOOK = lookTable('');

/** The first byte in [from, to) that `table` marks, else `to`. */
function scan(table: Uint8Array, bytes: Uint8Array, from: number, to: number): number {
  let i = from;
  while (i < to && table[bytes[i] as number] === 0) i++;
  return i;
}

function startsWith(bytes: Buffer, ascii: string, at: number): boolean {
  for (let k = 0; k < ascii.length; k++) if (bytes[at + k] !== ascii.charCodeAt(k)) return false;
  return true;
}

/** A well-formedness problem at a byte offset; reported with its line and column. */
class Malformed {
  constructor(
    readonly problem: string,
    readonly at: number,
  ) {}
}

const short = (name: string) => cutShort(name);

/**
 * XML 1.0 well-formedness of one document, checked a slice at a time (step), so a megabyte
 * document never holds the event loop for its whole length (checkWellFormedXml). One pass over
 * the document's UTF-8 bytes: an injected body is checked as it arrived, so a megabyte post is
 * never decoded into a string of the same size (utf8Of gives the bytes of a string). Characters
 * (section 2.2: NUL, most C0 controls, lone surrogates and U+FFFE/F are refused), names, start and
 * end tags that nest and match, quoted attribute values without repeats, references (only the
 * five predefined entities and character references naming a Char: there is no DTD, so nothing
 * else is defined), exactly one root element and nothing but whitespace, comments and processing
 * instructions around it. A DOCTYPE is refused outright (XML_DOCTYPE_FORBIDDEN), so no entity is
 * ever expanded. Messages count lines and columns in characters (UTF-16 code units), as the text
 * would be counted.
 *
 * Kept as lenient as the validator this replaced where XML 1.0 is stricter but no document's
 * meaning changes: `]]>` in text, `--` inside a comment, `<` inside an attribute value, a CDATA
 * section outside the root element.
 */
export class XmlCheck {
  private at: number;
  /** Where the document starts: after its byte-order mark, if it has one. */
  private readonly start: number;
  /** Where each element open at `at` started (its name follows the `<`), and where its name ends. */
  private readonly openAt: number[] = [];
  private readonly openNameEnd: number[] = [];
  private roots = 0;
  private done = false;

  /** `bytes`: well-formed UTF-8 (isUtf8 passed them), or a string's bytes from utf8Of. */
  constructor(private readonly bytes: Buffer) {
    this.start = hasBomAt(bytes, 0) ? BOM_BYTES : 0;
    this.at = this.start;
  }

  /**
   * Checks about `budget` more bytes (a tag, comment, section or run of text is always checked
   * whole); true once the whole document has been. Throws INVALID_XML or XML_DOCTYPE_FORBIDDEN.
   */
  step(budget: number): boolean {
    if (this.done) return true;
    const { bytes } = this;
    const stop = Math.min(bytes.length, this.at + budget);
    let i = this.at;
    try {
      while (i < stop) i = bytes[i] === LT ? this.markup(i) : this.text(i);
      this.at = i;
      if (i < bytes.length) return false;
      this.finish();
    } catch (err) {
      throw err instanceof Malformed ? this.invalid(err) : err;
    }
    this.done = true;
    return true;
  }

  /** The byte at `i`, or END past the document. */
  private byte(i: number): number {
    return this.bytes[i] ?? END;
  }

  /** Character data, or the whitespace around the root, from `from` up to the next `<`. */
  private text(from: number): number {
    const { bytes } = this;
    if (this.openAt.length === 0) return this.aroundRoot(from);
    let i = from;
    for (;;) {
      i = scan(IN_TEXT, bytes, i, bytes.length);
      if (i >= bytes.length) return i;
      const c = bytes[i];
      if (c === LT) return i;
      i = c === AMP ? this.reference(i) : this.unit(i) + 1;
    }
  }

  /** Only whitespace may stand between markup outside the root element. */
  private aroundRoot(from: number): number {
    const { bytes } = this;
    // A byte-order mark where a document was joined to another, as the validator this replaced
    // let through.
    const i = this.skipSpace(hasBomAt(bytes, from) ? from + BOM_BYTES : from);
    if (i >= bytes.length || bytes[i] === LT) return i;
    this.unit(i);
    throw new Malformed('text outside the root element', i);
  }

  private markup(lt: number): number {
    const { bytes } = this;
    const next = this.byte(lt + 1);
    if (next === SLASH) return this.endTag(lt);
    if (next === QUESTION) return this.instruction(lt);
    if (next !== BANG) return this.startTag(lt);
    if (startsWith(bytes, '<!--', lt)) return this.until(lt + 4, '-->', 'comment', lt);
    if (startsWith(bytes, '<![CDATA[', lt)) return this.until(lt + 9, ']]>', 'CDATA section', lt);
    if (/^<!doctype/i.test(this.ascii(lt, lt + 9))) {
      throw legacySimError('XML_DOCTYPE_FORBIDDEN', 'DOCTYPE and entity declarations are not accepted');
    }
    throw new Malformed('unexpected markup declaration', lt);
  }

  /** A comment or CDATA section: any characters up to its terminator. */
  private until(from: number, terminator: string, what: string, lt: number): number {
    const end = this.bytes.indexOf(terminator, from, 'latin1');
    if (end < 0) throw new Malformed(`unterminated ${what}`, lt);
    this.chars(from, end);
    return end + terminator.length;
  }

  private instruction(lt: number): number {
    const end = this.bytes.indexOf('?>', lt + 2, 'latin1');
    if (end < 0) throw new Malformed('unterminated processing instruction', lt);
    // The target `xml` is the XML declaration's, which only the document's first bytes may hold.
    if (/^xml[\s?]/i.test(this.ascii(lt + 2, lt + 6)) && lt !== this.start) {
      throw new Malformed('XML declaration allowed only at the start of the document', lt);
    }
    this.chars(lt + 2, end);
    return end + 2;
  }

  private startTag(lt: number): number {
    const nameAt = lt + 1;
    if (!this.nameStartsAt(nameAt)) throw this.unexpected(nameAt, "'<' not followed by a tag name");
    const nameEnd = this.nameEnd(nameAt);
    let listed: number[] | undefined;
    let seen: Set<string> | undefined;
    let i = nameEnd;
    for (;;) {
      const spaced = isSpace(this.byte(i));
      i = this.skipSpace(i);
      const c = this.byte(i);
      if (c === GT) {
        this.element(lt, nameEnd, true);
        return i + 1;
      }
      if (c === SLASH) {
        if (this.byte(i + 1) !== GT) {
          throw this.unexpected(i + 1, `'/' in tag <${this.name(nameAt, nameEnd)}> not followed by '>'`);
        }
        this.element(lt, nameEnd, false);
        return i + 2;
      }
      if (i >= this.bytes.length) throw new Malformed(`unterminated tag <${this.name(nameAt, nameEnd)}>`, lt);
      if (!spaced) {
        throw this.unexpected(i, `no whitespace before an attribute of <${this.name(nameAt, nameEnd)}>`);
      }
      const attributeEnd = this.attribute(i, nameAt, nameEnd);
      const attributeNameEnd = this.nameEnd(i);
      if (seen === undefined && (listed ??= []).length < 2 * LISTED_ATTRIBUTES) {
        for (let k = 0; k < listed.length; k += 2) {
          if (this.sameBytes(listed[k] as number, listed[k + 1] as number, i, attributeNameEnd)) {
            throw this.repeated(i, attributeNameEnd, nameAt, nameEnd);
          }
        }
        listed.push(i, attributeNameEnd);
      } else {
        seen ??= this.namesIn(listed as number[]);
        const key = this.ascii(i, attributeNameEnd);
        if (seen.has(key)) throw this.repeated(i, attributeNameEnd, nameAt, nameEnd);
        seen.add(key);
      }
      i = attributeEnd;
    }
  }

  /**
   * The names at the [from, to) pairs of `ranges`, as keys: each byte one character, so equal
   * names give equal keys without decoding UTF-8.
   */
  private namesIn(ranges: readonly number[]): Set<string> {
    const names = new Set<string>();
    for (let k = 0; k < ranges.length; k += 2)
      names.add(this.ascii(ranges[k] as number, ranges[k + 1] as number));
    return names;
  }

  /** Name, `=`, quoted value; returns the index after the closing quote. */
  private attribute(at: number, tagAt: number, tagEnd: number): number {
    const { bytes } = this;
    if (!this.nameStartsAt(at)) {
      throw this.unexpected(at, `invalid attribute name in <${this.name(tagAt, tagEnd)}>`);
    }
    const nameEnd = this.nameEnd(at);
    let i = this.skipSpace(nameEnd);
    if (this.byte(i) !== EQUALS)
      throw this.unexpected(i, `attribute '${this.name(at, nameEnd)}' has no value`);
    i = this.skipSpace(i + 1);
    const quote = this.byte(i);
    if (quote !== QUOTE && quote !== APOSTROPHE) {
      throw this.unexpected(i, `the value of attribute '${this.name(at, nameEnd)}' is not quoted`);
    }
    const close = bytes.indexOf(quote, i + 1);
    if (close < 0) {
      throw new Malformed(`the value of attribute '${this.name(at, nameEnd)}' is never closed`, i);
    }
    for (let j = scan(IN_VALUE, bytes, i + 1, close); j < close; j = scan(IN_VALUE, bytes, j, close)) {
      j = bytes[j] === AMP ? this.reference(j) : this.unit(j) + 1;
    }
    return close + 1;
  }

  private endTag(lt: number): number {
    const nameAt = lt + 2;
    if (!this.nameStartsAt(nameAt)) throw this.unexpected(nameAt, "'</' not followed by a tag name");
    const nameEnd = this.nameEnd(nameAt);
    const end = this.skipSpace(nameEnd);
    if (this.byte(end) !== GT) {
      throw this.unexpected(end, `closing tag </${this.name(nameAt, nameEnd)}> not ended by '>'`);
    }
    const openAt = this.openAt.pop();
    const openNameEnd = this.openNameEnd.pop() as number;
    if (openAt === undefined) {
      throw new Malformed(`closing tag </${this.name(nameAt, nameEnd)}> has no opening tag`, lt);
    }
    if (!this.sameBytes(openAt + 1, openNameEnd, nameAt, nameEnd)) {
      const open = this.name(openAt + 1, openNameEnd);
      throw new Malformed(`closing tag </${this.name(nameAt, nameEnd)}> does not match <${open}>`, lt);
    }
    return end + 1;
  }

  /** A start tag (`opens`) or an empty-element tag was read at `lt`; its name ends at `nameEnd`. */
  private element(lt: number, nameEnd: number, opens: boolean): void {
    if (this.openAt.length === 0 && ++this.roots > 1) throw new Malformed('more than one root element', lt);
    if (!opens) return;
    this.openAt.push(lt);
    this.openNameEnd.push(nameEnd);
  }

  /** `&` at `amp`: a predefined entity or a character reference; returns the index after `;`. */
  private reference(amp: number): number {
    if (this.byte(amp + 1) === HASH) {
      const hex = this.byte(amp + 2) === LOWER_X;
      const from = amp + (hex ? 3 : 2);
      let end = from;
      while (end - from <= MAX_REFERENCE_DIGITS && isDigit(this.byte(end), hex)) end++;
      if (end === from || this.byte(end) !== SEMICOLON) throw this.undefinedReference(amp);
      if (!isXmlChar(parseInt(this.ascii(from, end), hex ? 16 : 10))) {
        throw new Malformed(
          `character reference "${this.ascii(amp, end + 1)}" names a character XML 1.0 does not allow`,
          amp,
        );
      }
      return end + 1;
    }
    if (!this.nameStartsAt(amp + 1)) throw this.undefinedReference(amp);
    const end = this.nameEnd(amp + 1);
    if (this.byte(end) !== SEMICOLON || !this.isPredefinedEntity(amp + 1, end))
      throw this.undefinedReference(amp);
    return end + 1;
  }

  private finish(): void {
    const last = this.openAt.length - 1;
    if (last >= 0) {
      const lt = this.openAt[last] as number;
      throw new Malformed(`<${this.name(lt + 1, this.openNameEnd[last] as number)}> is never closed`, lt);
    }
    if (this.roots === 0) throw new Malformed('no root element', this.bytes.length);
  }

  /** Checks the characters of [from, to) (a comment, a section, an instruction). */
  private chars(from: number, to: number): void {
    for (let i = scan(NEEDS_LOOK, this.bytes, from, to); i < to; i = scan(NEEDS_LOOK, this.bytes, i, to)) {
      i = this.unit(i) + 1;
    }
  }

  /**
   * The byte at `i`, which starts a character, judged: a C0 control but tab, LF and CR, a
   * surrogate, U+FFFE or U+FFFF is refused. Returns `i`; the rest of a longer sequence is read
   * past by the caller, as continuation bytes never need a look.
   */
  private unit(i: number): number {
    const c = this.byte(i);
    if (c < SPACE) {
      if (c !== LF && c !== TAB && c !== CR) this.forbidden(i);
    } else if (c === 0xed) {
      if (this.byte(i + 1) >= 0xa0) this.forbidden(i);
    } else if (c === 0xef && this.byte(i + 1) === 0xbf && this.byte(i + 2) >= 0xbe) {
      this.forbidden(i);
    }
    return i;
  }

  private nameStartsAt(i: number): boolean {
    const c = this.byte(i);
    if (c < 0x80) return isNameStart(c);
    const code = codePointAt(this.bytes, i);
    return code < 0x10000 ? isNameStart(code) : code <= 0xeffff;
  }

  private nameEnd(from: number): number {
    const { bytes } = this;
    let i = from;
    for (;;) {
      const c = this.byte(i);
      if (c < 0x80) {
        if (!isNameChar(c)) return i;
        i++;
        continue;
      }
      const code = codePointAt(bytes, i);
      if (code < 0x10000 ? !isNameChar(code) : code > 0xeffff) return i;
      i += code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    }
  }

  private skipSpace(from: number): number {
    let i = from;
    while (isSpace(this.byte(i))) i++;
    return i;
  }

  /**
   * The name in [from, to), shortened, for a message: names are compared as bytes, and made into
   * text only when a message quotes one.
   */
  private name(from: number, to: number): string {
    return short(this.textOf(from, to));
  }

  /** [from, to) as text: names and excerpts. */
  private textOf(from: number, to: number): string {
    return this.bytes.toString('utf8', from, to);
  }

  /** Whether [a, aEnd) and [b, bEnd) hold the same bytes (names: a few bytes each). */
  private sameBytes(a: number, aEnd: number, b: number, bEnd: number): boolean {
    if (aEnd - a !== bEnd - b) return false;
    for (let k = 0; k < aEnd - a; k++) if (this.bytes[a + k] !== this.bytes[b + k]) return false;
    return true;
  }

  private isPredefinedEntity(from: number, to: number): boolean {
    for (const entity of PREDEFINED_ENTITIES) {
      if (to - from === entity.length && startsWith(this.bytes, entity, from)) return true;
    }
    return false;
  }

  /** [from, to) where only ASCII characters matter (digits, keywords): no UTF-8 decoding. */
  private ascii(from: number, to: number): string {
    return this.bytes.toString('latin1', from, Math.min(to, this.bytes.length));
  }

  /** What is wrong at `i`: a character XML never allows, else `problem`. */
  private unexpected(i: number, problem: string): Malformed {
    if (i < this.bytes.length) this.unit(i);
    return new Malformed(i < this.bytes.length ? problem : 'the document ends inside a tag', i);
  }

  private repeated(at: number, nameEnd: number, tagAt: number, tagEnd: number): Malformed {
    const tag = this.name(tagAt, tagEnd);
    return new Malformed(`attribute '${this.name(at, nameEnd)}' is repeated in <${tag}>`, at);
  }

  private undefinedReference(amp: number): Malformed {
    const shown = /^&[^\s;<&]{0,20};?/.exec(this.textOf(amp, amp + 24 * 4))?.[0] ?? '&';
    return new Malformed(
      `undefined entity reference "${shown}" (only &amp; &lt; &gt; &quot; &apos; and &#...; are defined)`,
      amp,
    );
  }

  private forbidden(i: number): never {
    const code = codePointAt(this.bytes, i).toString(16).toUpperCase().padStart(4, '0');
    throw legacySimError(
      'INVALID_XML',
      `body contains U+${code} at character ${unitsIn(this.bytes, 0, i)}, which XML 1.0 does not allow`,
    );
  }

  private invalid({ problem, at }: Malformed): Error {
    const { bytes } = this;
    let line = 1;
    let lineStart = 0;
    for (let nl = bytes.indexOf(LF); nl >= 0 && nl < at; nl = bytes.indexOf(LF, nl + 1)) {
      line++;
      lineStart = nl + 1;
    }
    const column = unitsIn(bytes, lineStart, Math.min(at, bytes.length)) + 1;
    return legacySimError(
      'INVALID_XML',
      `body is not well-formed XML: ${problem} (line ${line}, column ${column})`,
    );
  }
}

function isDigit(c: number, hex: boolean): boolean {
  return (c >= 0x30 && c <= 0x39) || (hex && ((c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46)));
}
