import { isUtf8 } from 'node:buffer';
import { TextDecoder } from 'node:util';
import { unsupportedCharset } from '@racedata/core';
import { legacySimError } from '../errors';
import { hasBomAt } from '../xml/utf8-units';
import { documentText, type LegacyDocument } from '../legacy-document';
import { LARGE_DOCUMENT_CHARS } from '../queue/queued-document';

// The XML declaration is ASCII in every encoding a legacy document would use, so it can be read
// before the body is decoded.
const DECLARED_ENCODING = /^(?:\uFEFF)?<\?xml[^>]*?\bencoding\s*=\s*["']([A-Za-z0-9._-]+)["']/;

function charsetOf(contentType: string | undefined): string | undefined {
  const match = contentType ? /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType) : null;
  return match?.[1];
}

/** A UTF-16 byte-order mark is the only way to tell UTF-16 apart: its declaration is not ASCII. */
function utf16ByMark(body: Buffer): string | undefined {
  if (body[0] === 0xff && body[1] === 0xfe) return 'utf-16le';
  if (body[0] === 0xfe && body[1] === 0xff) return 'utf-16be';
  return undefined;
}

/**
 * Decodes an injected XML body. Older integrations send ISO-8859-1 documents, so the charset
 * comes from the content type, else from the document's own declaration (or a UTF-16 byte-order
 * mark), else UTF-8. Any WHATWG encoding label is understood. Bytes that are not valid in that
 * charset are refused: replacing them with U+FFFD would queue a document the client never sent.
 */
export function decodeXmlBody(body: Buffer, contentType: string | undefined): string {
  return documentText(decodeXmlBodyWithBytes(body, contentType));
}

/**
 * decodeXmlBody, handing back the body itself (after any byte-order mark) when it was UTF-8: the
 * check reads it and the queue keeps it. A UTF-8 body of LARGE_DOCUMENT_CHARS bytes or more is
 * not decoded at all (see LegacyDocument).
 */
export function decodeXmlBodyWithBytes(body: Buffer, contentType: string | undefined): LegacyDocument {
  const head = body.subarray(0, 200).toString('latin1');
  const fromHeader = charsetOf(contentType);
  const fromDocument = DECLARED_ENCODING.exec(head)?.[1] ?? utf16ByMark(body);
  const encoding = fromHeader ?? fromDocument ?? 'utf-8';
  // The labels nearly every post carries (or implies): no decoder to look the label up with.
  if (UTF8_LABELS.has(encoding)) {
    try {
      return utf8(body);
    } catch {
      throw notValidIn('utf-8', fromHeader, fromDocument);
    }
  }
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(encoding.toLowerCase(), { fatal: true });
  } catch (err) {
    throw unsupportedCharset(encoding, 'UTF-8 or ISO-8859-1', { cause: err });
  }
  try {
    return decoder.encoding === 'utf-8' ? utf8(body) : { xml: decoder.decode(body), utf8: undefined };
  } catch {
    throw notValidIn(decoder.encoding, fromHeader, fromDocument);
  }
}

/** WHATWG labels of UTF-8 as posts spell them; any other spelling takes the TextDecoder's lookup. */
const UTF8_LABELS = new Set(['utf-8', 'UTF-8', 'utf8', 'UTF8', 'Utf-8']);

function notValidIn(encoding: string, fromHeader: string | undefined, fromDocument: string | undefined) {
  const source = fromHeader
    ? 'charset from the Content-Type header'
    : fromDocument
      ? 'encoding named by the document'
      : 'no charset given, so UTF-8';
  return legacySimError('INVALID_XML', `body has bytes that are not valid ${encoding} (${source})`);
}

/**
 * What a fatal UTF-8 TextDecoder gives (the text, without a byte-order mark), at a fraction of
 * its cost on a megabyte body: the validity check runs natively, and a small body is decoded once.
 */
function utf8(body: Buffer): LegacyDocument {
  if (!isUtf8(body)) throw new TypeError('not UTF-8');
  const bytes = hasBomAt(body, 0) ? body.subarray(UTF8_BOM_BYTES) : body;
  if (bytes.length >= LARGE_DOCUMENT_CHARS) return { utf8: bytes };
  return { xml: bytes.toString('utf8'), utf8: bytes };
}

const UTF8_BOM_BYTES = 3;
