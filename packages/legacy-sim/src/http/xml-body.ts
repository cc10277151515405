import { TextDecoder } from 'node:util';
import { legacySimError } from '../errors';

// The XML declaration is ASCII in every encoding a legacy document would use, so it can be read
// before the body is decoded.
const DECLARED_ENCODING = /^(?:\uFEFF)?<\?xml[^>]*?\bencoding\s*=\s*["']([A-Za-z0-9._-]+)["']/;

function charsetOf(contentType: string | undefined): string | undefined {
  const match = contentType ? /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType) : null;
  return match?.[1];
}

/**
 * Decodes an injected XML body. Older integrations send ISO-8859-1 documents, so the charset
 * comes from the content type, else from the document's own declaration, else UTF-8.
 */
export function decodeXmlBody(body: Buffer, contentType: string | undefined): string {
  const head = body.subarray(0, 200).toString('latin1');
  const encoding = charsetOf(contentType) ?? DECLARED_ENCODING.exec(head)?.[1] ?? 'utf-8';
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(encoding.toLowerCase());
  } catch {
    throw legacySimError(
      'UNSUPPORTED_CHARSET',
      `unsupported charset "${encoding}"; send UTF-8 or ISO-8859-1`,
    );
  }
  return decoder.decode(body);
}
