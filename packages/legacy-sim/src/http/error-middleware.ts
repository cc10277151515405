import type { IncomingMessage, ServerResponse } from 'node:http';
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

/**
 * The one place errors become responses: `{"status":"fail","code":...,"message":...}`. Plain
 * Node, so the listen path served outside express (direct-listen.ts) answers with the same bytes
 * express's res.status().json() gave (header names as express writes them).
 */
export function sendError(err: unknown, req: IncomingMessage, res: ServerResponse, logger: Logger): void {
  const error = toSimError(err, fromBodyParser, () =>
    logger.error({ err, method: req.method, path: pathOf(req.url ?? '') }, 'unexpected error'),
  );
  if (res.headersSent) {
    res.end();
    return;
  }
  const body = JSON.stringify({ status: 'fail', code: error.code, message: error.message });
  res.statusCode = error.status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(body, 'utf8'));
  res.end(body);
}

export function errorMiddleware(logger: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => sendError(err, req, res, logger);
}

function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
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
