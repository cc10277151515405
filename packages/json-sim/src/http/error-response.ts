import type { ServerResponse } from 'node:http';
import { bodyParserRefusal, toSimError, type Logger, type OtherRefusal } from '@racedata/core';
import { jsonSimError } from '../errors';
import { sendJson } from './event-page';

/** Where an error happened, for the log line of an unexpected one. */
export interface ErrorContext {
  readonly method: string | undefined;
  readonly path: string;
}

const otherRefusal: OtherRefusal = (message, options) => jsonSimError('INVALID_MESSAGE', message, options);
const fromBodyParser = (err: unknown) => bodyParserRefusal(err, otherRefusal);

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
