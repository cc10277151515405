import { legacySimError } from '../errors';
import { XmlCheck } from './xml-check';

/**
 * Characters checked between two turns of the event loop: well under a millisecond of work, so
 * a stream of megabyte injections leaves room for every other request in between.
 */
export const XML_SLICE_CHARS = 64 * 1024;

/** Hands the event loop to whatever else is waiting, and resumes. */
export type YieldTurn = () => Promise<void>;

export const nextTurn: YieldTurn = () => new Promise((resolve) => setImmediate(resolve));

function assertNotEmpty(xml: string): void {
  if (xml.trim() === '') {
    throw legacySimError('EMPTY_BODY', 'request body is empty; expected an XML document');
  }
}

/**
 * Throws EMPTY_BODY, XML_DOCTYPE_FORBIDDEN or INVALID_XML unless `xml` is one well-formed document
 * (see XmlCheck). Messages quote the document only in short excerpts.
 */
export function assertWellFormedXml(xml: string): void {
  assertNotEmpty(xml);
  new XmlCheck(xml).step(Number.POSITIVE_INFINITY);
}

/** assertWellFormedXml a slice at a time, yielding the event loop between slices. */
export async function checkWellFormedXml(
  xml: string,
  yieldTurn: YieldTurn = nextTurn,
  sliceChars = XML_SLICE_CHARS,
): Promise<void> {
  assertNotEmpty(xml);
  const check = new XmlCheck(xml);
  while (!check.step(sliceChars)) await yieldTurn();
}
