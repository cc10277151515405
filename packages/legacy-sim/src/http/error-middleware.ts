import type { ErrorRequestHandler, RequestHandler } from 'express';
import { isSimError, type Logger, type SimError } from '@racedata/core';
import { legacySimError } from '../errors';

interface BodyParserError {
  type?: string;
  status?: number;
  limit?: number;
}

function fromBodyParser(err: unknown): SimError | undefined {
  const parserError = err as BodyParserError;
  if (parserError.type === 'entity.too.large') {
    return legacySimError('PAYLOAD_TOO_LARGE', `request body exceeds ${parserError.limit} bytes`);
  }
  if (parserError.type === 'entity.parse.failed') {
    return legacySimError('MALFORMED_JSON', 'request body is not valid JSON');
  }
  if (typeof parserError.status === 'number' && parserError.status >= 400 && parserError.status < 500) {
    return legacySimError('BAD_REQUEST', (err as Error).message);
  }
  return undefined;
}

/** The one place errors become responses: `{"status":"fail","code":...,"message":...}`. */
export function errorMiddleware(logger: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    let error = isSimError(err) ? err : fromBodyParser(err);
    if (!error) {
      logger.error({ err, method: req.method, path: req.path }, 'unexpected error');
      error = legacySimError('INTERNAL', 'unexpected error');
    }
    if (res.headersSent) {
      res.end();
      return;
    }
    res.status(error.status).json({ status: 'fail', code: error.code, message: error.message });
  };
}

export function notFound(): RequestHandler {
  return (req, _res, next) => {
    next(legacySimError('NOT_FOUND', `no route for ${req.method} ${req.path}`));
  };
}
