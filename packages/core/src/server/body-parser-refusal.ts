import { coreError, type SimError } from '../errors';
import { cutShort, quoteShort } from './input-excerpt';

/** What body-parser (express.json, express.raw) puts on the errors it raises. */
interface BodyParserError {
  readonly type?: string;
  readonly status?: number;
  readonly limit?: number;
  readonly charset?: string;
  readonly encoding?: string;
  readonly message?: string;
}

/**
 * UNSUPPORTED_CHARSET for a charset the body cannot be read in, with the one charset label a
 * client sent quoted short (it comes from their content-type header) and what to send instead.
 */
export function unsupportedCharset(charset: string, accepted: string, options?: ErrorOptions): SimError {
  return coreError(
    'UNSUPPORTED_CHARSET',
    `unsupported charset ${quoteShort(charset)}; send ${accepted}`,
    options,
  );
}

/**
 * A simulator's code for a body-parser refusal that has no code of its own here (an aborted
 * request, a body shorter than its Content-Length): given the message to answer with.
 */
export type OtherRefusal = (message: string, options: ErrorOptions) => SimError;

/**
 * The one translation of a body-parser refusal into a SimError, for both simulators' error
 * middleware; undefined for anything else (the caller's toSimError treats that as a bug). Only
 * express.json checks a charset, so the advice asks for UTF-8 JSON.
 */
export function bodyParserRefusal(err: unknown, other: OtherRefusal): SimError | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const refusal = err as BodyParserError;
  const cause = { cause: err };
  switch (refusal.type) {
    case 'entity.too.large':
      return coreError('PAYLOAD_TOO_LARGE', `request body exceeds ${refusal.limit} bytes`, cause);
    case 'entity.parse.failed':
      return coreError('MALFORMED_JSON', 'request body is not valid JSON', cause);
    case 'charset.unsupported':
      return unsupportedCharset(refusal.charset ?? '', 'UTF-8 JSON', cause);
    case 'encoding.unsupported':
      // A Content-Encoding the parser cannot undo: 415 as for a charset (RFC 9110, 15.5.16).
      return coreError(
        'UNSUPPORTED_CHARSET',
        `unsupported content encoding ${quoteShort(refusal.encoding ?? '')}; send the body uncompressed, gzip, deflate or br`,
        cause,
      );
  }
  if (typeof refusal.status === 'number' && refusal.status >= 400 && refusal.status < 500) {
    // body-parser messages can quote the request's own headers.
    return other(cutShort(String(refusal.message), 200), cause);
  }
  return undefined;
}
