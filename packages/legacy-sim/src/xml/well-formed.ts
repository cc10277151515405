import { legacySimError } from '../errors';
import { isBlank, utf8Of } from './utf8-units';
import { XmlCheck } from './xml-check';

/**
 * Bytes checked between two turns of the event loop: well under a millisecond of work, so a
 * stream of megabyte injections leaves room for every other request in between.
 */
export const XML_SLICE_BYTES = 64 * 1024;

/** Hands the event loop to whatever else is waiting, and resumes. */
export type YieldTurn = () => Promise<void>;

export const nextTurn: YieldTurn = () => new Promise((resolve) => setImmediate(resolve));

/** A document as the checker reads it: a body's UTF-8 bytes as they arrived, or a string's. */
export type XmlInput = string | Buffer;

function bytesOf(xml: XmlInput): Buffer {
  return typeof xml === 'string' ? utf8Of(xml) : xml;
}

function assertNotEmpty(bytes: Buffer): void {
  if (isBlank(bytes)) {
    throw legacySimError('EMPTY_BODY', 'request body is empty; expected an XML document');
  }
}

/**
 * Throws EMPTY_BODY, XML_DOCTYPE_FORBIDDEN or INVALID_XML unless `xml` is one well-formed document
 * (see XmlCheck). Messages quote the document only in short excerpts. Bytes must be well-formed
 * UTF-8 (decodeXmlBodyWithBytes makes sure of it).
 */
export function assertWellFormedXml(xml: XmlInput): void {
  const bytes = bytesOf(xml);
  assertNotEmpty(bytes);
  new XmlCheck(bytes).step(Number.POSITIVE_INFINITY);
}

/** assertWellFormedXml a slice at a time, yielding the event loop between slices. */
export async function checkWellFormedXml(
  xml: XmlInput,
  yieldTurn: YieldTurn = nextTurn,
  sliceBytes = XML_SLICE_BYTES,
): Promise<void> {
  const bytes = bytesOf(xml);
  assertNotEmpty(bytes);
  const check = new XmlCheck(bytes);
  while (!check.step(sliceBytes)) await yieldTurn();
}
