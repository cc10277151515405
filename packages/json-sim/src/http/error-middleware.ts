import type { ErrorRequestHandler, RequestHandler } from 'express';
import { coreError, cutShort, type Logger } from '@racedata/core';
import { sendError } from './error-response';

/** The express app's error handler: every route's error is answered by sendError. */
export function errorMiddleware(logger: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    sendError(err, res, logger, { method: req.method, path: req.path });
  };
}

/** Unknown paths, and methods other than GET on the event endpoints (7.3: 404, not 405). */
export function notFound(): RequestHandler {
  return (req, _res, next) => {
    next(coreError('NOT_FOUND', `no route for ${req.method} ${cutShort(req.path)}`));
  };
}
