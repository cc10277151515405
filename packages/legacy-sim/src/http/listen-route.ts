import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { afterPendingIo, type Journal, type TokenService } from '@racedata/core';
import type { LegacyQueues } from '../queue/legacy-queues';
import type { Delivery } from './delivery';

export interface ListenDeps {
  tokens: TokenService;
  queues: LegacyQueues;
  longPollTimeoutMs: number;
  delivery: Delivery;
  journal?: Journal;
}

/** True once nothing sent on this exchange can reach the client any more. */
function hungUp(req: IncomingMessage, res: ServerResponse): boolean {
  const socket = req.socket;
  return (
    req.destroyed ||
    res.destroyed ||
    res.writableEnded ||
    socket.destroyed ||
    !socket.writable ||
    socket.readableEnded
  );
}

/**
 * GET /customerapi/channels/listen (interface 4.2): one XML document as a JSON string, or 204
 * after the long-poll timeout. The response is written with res.end, never res.send: no ETag, no
 * freshness check, no range, so no request header can turn it into a 304 that drops a message.
 */
export function listenRoute(deps: ListenDeps): RequestHandler {
  return async (req, res) => {
    const user = deps.tokens.verifyAuthorization(req.headers.authorization);
    const gone = new AbortController();
    const onGone = () => gone.abort();
    res.once('close', onGone);
    req.once('close', onGone);
    req.socket.once('end', onGone);
    try {
      res.setHeader('cache-control', 'no-store');
      const lease = await deps.queues.take(user, { timeoutMs: deps.longPollTimeoutMs, signal: gone.signal });
      // A FIN or reset the kernel already holds for this client is read before the answer goes.
      if (lease && !hungUp(req, res)) await afterPendingIo();
      if (gone.signal.aborted || hungUp(req, res)) {
        lease?.release();
        return;
      }
      if (!lease) {
        res.statusCode = 204;
        res.end();
        return;
      }
      deps.delivery.deliver(req, res, lease);
      const message = lease.message;
      deps.journal?.delivered({
        user: user.key,
        transport: 'listen',
        channel: message.channel ?? 'id',
        payloadKey: message.payloadKey,
        status: 200,
      });
    } finally {
      res.off('close', onGone);
      req.off('close', onGone);
      req.socket.off('end', onGone);
    }
  };
}
