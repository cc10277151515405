/**
 * A legacy document as it reaches the bus: its text, its UTF-8 bytes, or both. An injected UTF-8
 * body of LARGE_DOCUMENT_CHARS bytes or more comes as bytes alone: the checker reads bytes, the
 * queue and the journal keep them, and a string of the same size is made only for a STOMP
 * delivery. Decoding a megabyte body cost a few milliseconds of the event loop's time at the end
 * of each post, most of it in fresh pages, which held up every other request.
 */
export type LegacyDocument =
  | { readonly xml: string; readonly utf8?: Buffer | undefined }
  | { readonly xml?: undefined; readonly utf8: Buffer };

/** The document as text, decoded if it came as bytes alone. */
export function documentText(doc: LegacyDocument): string {
  return doc.xml ?? doc.utf8.toString('utf8');
}

/** The document's length in UTF-8 bytes. */
export function documentBytes(doc: LegacyDocument): number {
  return doc.utf8?.length ?? Buffer.byteLength(doc.xml as string, 'utf8');
}
