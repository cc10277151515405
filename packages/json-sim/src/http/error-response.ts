import type { ServerResponse } from 'node:http';
import { coreError, toSimError, type Logger, type SimError } from '@racedata/core';
import { jsonSimError } from '../errors';
import { excerpt, quoted } from '../excerpt';
import { sendJson } from './event-page';

interface BodyParserError {
  type?: string;
  status?: number;
  limit?: number;
  charset?: string;
}

/** Where an error happened, for the log line of an unexpected one. */
export interface ErrorContext {
  readonly method: string | undefined;
  readonly path: string;
}

function fromBodyParser(err: unknown): SimError | undefined {
  const parserError = err as BodyParserError;
  if (parserError.type === 'entity.too.large') {
    return coreError('PAYLOAD_TOO_LARGE', `request body exceeds ${parserError.limit} bytes`, { cause: err });
  }
  if (parserError.type === 'charset.unsupported' || parserError.type === 'encoding.unsupported') {
    // The charset comes from the client's content-type header: quoted, never at length.
    const charset = parserError.charset ?? '';
    return coreError('UNSUPPORTED_CHARSET', `unsupported charset ${quoted(charset)}; send UTF-8 JSON`, {
      cause: err,
    });
  }
  if (parserError.type === 'entity.parse.failed') {
    return coreError('MALFORMED_JSON', 'request body is not valid JSON', { cause: err });
  }
  if (typeof parserError.status === 'number' && parserError.status < 500) {
    return jsonSimError('INVALID_MESSAGE', excerpt(String((err as Error).message), 200), { cause: err });
  }
  return undefined;
}

/**
 * The one place an error becomes a response, `{"status":"fail","message":...}`, for the express
 * app's error middleware and the direct read path alike. Anything that is neither a SimError
 * nor a body-parser refusal is a bug: logged, and answered 500 without its details.
 */
export function sendError(err: unknown, res: ServerResponse, logger: Logger, where: ErrorContext): void {
  const error = toSimError(err, fromBodyParser, () =>
    logger.error({ err, method: where.method, path: where.path }, 'unexpected error'),
  );
  if (res.headersSent) {
    res.end();
    return;
  }
  sendJson(res, error.status, JSON.stringify({ status: 'fail', message: error.message }));
}
