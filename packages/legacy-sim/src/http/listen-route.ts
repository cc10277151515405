import type { RequestHandler } from 'express';
import type { LegacyQueues, TokenService } from '@racedata/core';

export interface ListenDeps {
  tokens: TokenService;
  queues: LegacyQueues;
  longPollTimeoutMs: number;
}

/**
 * GET /customerapi/channels/listen (interface 4.2): one XML document as a JSON string, or 204
 * after the long-poll timeout. The message leaves the user's queue only once the response was
 * handed to the socket ('finish'); a client that hangs up first puts it back at the head.
 */
export function listenRoute(deps: ListenDeps): RequestHandler {
  return async (req, res) => {
    const user = deps.tokens.verifyAuthorization(req.headers.authorization);
    const gone = new AbortController();
    const onClose = () => gone.abort();
    res.once('close', onClose);
    const lease = await deps.queues.take(user, { timeoutMs: deps.longPollTimeoutMs, signal: gone.signal });
    res.off('close', onClose);
    if (gone.signal.aborted || res.destroyed) {
      lease?.release();
      return;
    }
    res.setHeader('cache-control', 'no-store');
    if (!lease) {
      res.status(204).end();
      return;
    }
    res.once('finish', () => lease.ack());
    res.once('close', () => {
      if (!res.writableFinished) lease.release();
    });
    res.status(200).type('application/json').send(JSON.stringify(lease.message.xml));
  };
}
