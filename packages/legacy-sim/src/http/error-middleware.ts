import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import {
  bodyParserRefusal,
  coreError,
  quoteShort,
  toSimError,
  type Logger,
  type OtherRefusal,
} from '@racedata/core';
import { legacySimError } from '../errors';

const otherRefusal: OtherRefusal = (message, options) => legacySimError('BAD_REQUEST', message, options);
const fromBodyParser = (err: unknown) => bodyParserRefusal(err, otherRefusal);

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
  answerJson(res, error.status, { status: 'fail', code: error.code, message: error.message });
}

/**
 * A JSON answer in the bytes express's res.status().json() writes (these two headers, in this
 * order), for the paths served outside express (direct-listen.ts, direct-inject.ts).
 */
export function answerJson(res: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  res.statusCode = status;
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
    next(legacySimError('METHOD_NOT_ALLOWED', `${quoteShort(req.method, 16)} is not allowed here; use GET`));
  };
}

export function notFound(): RequestHandler {
  return (req, _res, next) => {
    next(coreError('NOT_FOUND', `no route for ${quoteShort(req.method, 16)} ${quoteShort(req.path)}`));
  };
}
