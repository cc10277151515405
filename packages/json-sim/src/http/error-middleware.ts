import type { ErrorRequestHandler, RequestHandler } from 'express';
import { isSimError, type Logger } from '@racedata/core';
import { jsonSimError } from '../errors';
import { excerpt, quoted } from '../excerpt';

interface BodyParserError {
  type?: string;
  status?: number;
  limit?: number;
  charset?: string;
}

/** The one place errors become responses: `{"status":"fail","message":...}` (decisions.md). */
export function errorMiddleware(logger: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    const parserError = err as BodyParserError;
    let error = isSimError(err) ? err : undefined;
    if (!error && parserError.type === 'entity.too.large') {
      error = jsonSimError('PAYLOAD_TOO_LARGE', `request body exceeds ${parserError.limit} bytes`);
    } else if (
      !error &&
      (parserError.type === 'charset.unsupported' || parserError.type === 'encoding.unsupported')
    ) {
      // The charset comes from the client's content-type header: quoted, never at length.
      const charset = parserError.charset ?? '';
      error = jsonSimError('UNSUPPORTED_CHARSET', `unsupported charset ${quoted(charset)}; send UTF-8 JSON`);
    } else if (!error && parserError.type === 'entity.parse.failed') {
      error = jsonSimError('MALFORMED_JSON', 'request body is not valid JSON');
    } else if (!error && typeof parserError.status === 'number' && parserError.status < 500) {
      error = jsonSimError('INVALID_MESSAGE', excerpt(String((err as Error).message), 200));
    }
    if (!error) {
      logger.error({ err, method: req.method, path: req.path }, 'unexpected error');
      error = jsonSimError('INTERNAL', 'unexpected error');
    }
    if (res.headersSent) {
      res.end();
      return;
    }
    res.status(error.status).json({ status: 'fail', message: error.message });
  };
}

/** Unknown paths, and methods other than GET on the event endpoints (7.3: 404, not 405). */
export function notFound(): RequestHandler {
  return (req, _res, next) => {
    next(jsonSimError('NOT_FOUND', `no route for ${req.method} ${excerpt(req.path)}`));
  };
}
