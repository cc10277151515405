import type { ErrorRequestHandler, RequestHandler } from 'express';
import { coreError, toSimError, type Logger, type SimError } from '@racedata/core';
import { legacySimError } from '../errors';
import { excerpt } from '../excerpt';

interface BodyParserError {
  type?: string;
  status?: number;
  limit?: number;
}

function fromBodyParser(err: unknown): SimError | undefined {
  const parserError = err as BodyParserError;
  if (parserError.type === 'entity.too.large') {
    return coreError('PAYLOAD_TOO_LARGE', `request body exceeds ${parserError.limit} bytes`, { cause: err });
  }
  if (parserError.type === 'entity.parse.failed') {
    return coreError('MALFORMED_JSON', 'request body is not valid JSON', { cause: err });
  }
  if (parserError.type === 'charset.unsupported') {
    return coreError('UNSUPPORTED_CHARSET', 'unsupported charset; send UTF-8', { cause: err });
  }
  if (typeof parserError.status === 'number' && parserError.status >= 400 && parserError.status < 500) {
    // body-parser messages can quote the request's own headers.
    return legacySimError('BAD_REQUEST', excerpt((err as Error).message, 120), { cause: err });
  }
  return undefined;
}

/** The one place errors become responses: `{"status":"fail","code":...,"message":...}`. */
export function errorMiddleware(logger: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    const error = toSimError(err, fromBodyParser, () =>
      logger.error({ err, method: req.method, path: req.path }, 'unexpected error'),
    );
    if (res.headersSent) {
      res.end();
      return;
    }
    res.status(error.status).json({ status: 'fail', code: error.code, message: error.message });
  };
}

/** For a path whose only method is GET: other methods (HEAD included) must not reach its handler. */
export function onlyGet(): RequestHandler {
  return (req, res, next) => {
    res.setHeader('allow', 'GET');
    next(legacySimError('METHOD_NOT_ALLOWED', `${excerpt(req.method, 16)} is not allowed here; use GET`));
  };
}

export function notFound(): RequestHandler {
  return (req, _res, next) => {
    next(coreError('NOT_FOUND', `no route for ${excerpt(req.method, 16)} ${excerpt(req.path)}`));
  };
}
