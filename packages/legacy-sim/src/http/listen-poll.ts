import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger, User } from '@racedata/core';
import type { Journal } from '@racedata/control';
import type { HeldPoll, Lease, LegacyQueues, Waiter } from '../queue/legacy-queues';
import type { Delivery } from './delivery';
import { sendError } from './error-middleware';
import { PendingIoBatch, type AfterIo } from './pending-io-batch';

export interface ListenDeps {
  queues: LegacyQueues;
  longPollTimeoutMs: number;
  delivery: Delivery;
  logger: Logger;
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
 * GET /customerapi/channels/listen (interface 4.2) for an authenticated user: one XML document
 * as a JSON string, or 204 after the long-poll timeout. Served for the express route and for the
 * direct path (direct-listen.ts) alike. The response is written with res.end, never res.send: no
 * ETag, no freshness check, no range, so no request header can turn it into a 304 that drops a
 * message.
 */
export class ListenEndpoint {
  private readonly pendingIo = new PendingIoBatch();

  constructor(private readonly deps: ListenDeps) {}

  serve(req: IncomingMessage, res: ServerResponse, user: User): void {
    new ListenPoll(this.deps, this.pendingIo, req, res, user).start();
  }
}

const NO_STORE = ['cache-control', 'no-store'];

/**
 * One held poll, as one object: it waits on the user's queue, is answered by it, and writes the
 * answer once the I/O already waiting has been read. One is made per request, so it carries its
 * state in fields rather than in an abort controller, listeners and closures per step.
 */
class ListenPoll implements Waiter, AfterIo {
  private held: HeldPoll | undefined;
  private lease: Lease | undefined;

  constructor(
    private readonly deps: ListenDeps,
    private readonly pendingIo: PendingIoBatch,
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    private readonly user: User,
  ) {}

  start(): void {
    // A client gone while the poll waits gives up its place. The request closes as soon as the
    // server reads the client's FIN or reset (it aborts every request of the connection), which
    // can be well before the response's own close; a poll still queued meanwhile would take
    // messages only to hand them back. One leased to it anyway is caught by hungUp() below.
    this.req.on('close', () => this.held?.cancel());
    this.held = this.deps.queues.hold(this.user, this.deps.longPollTimeoutMs, this);
  }

  answer(lease: Lease | undefined): void {
    this.held = undefined;
    // Called by the queue, maybe while it answers many polls for one POST: nothing may escape.
    try {
      this.answerWith(lease);
    } catch (err) {
      lease?.release();
      sendError(err, this.req, this.res, this.deps.logger);
    }
  }

  private answerWith(lease: Lease | undefined): void {
    const { req, res } = this;
    if (lease === undefined) {
      if (hungUp(req, res)) return;
      res.writeHead(204, NO_STORE);
      res.end();
      return;
    }
    if (hungUp(req, res)) {
      // Not now: the queue may be in the middle of handing messages to many polls.
      queueMicrotask(() => lease.release());
      return;
    }
    this.lease = lease;
    // A FIN or reset the kernel already holds for this client is read before the answer goes.
    this.pendingIo.run(this);
  }

  afterIo(): void {
    const { req, res, deps } = this;
    const lease = this.lease as Lease;
    try {
      if (hungUp(req, res)) {
        lease.release();
        return;
      }
      deps.delivery.deliver(req, res, lease);
      const message = lease.message;
      deps.journal?.delivered({
        user: this.user.key,
        transport: 'listen',
        channel: message.channel ?? 'id',
        payloadKey: message.payloadKey,
        status: 200,
      });
    } catch (err) {
      // Only a broken invariant lands here; answered as the error middleware would.
      lease.release();
      sendError(err, req, res, deps.logger);
    }
  }
}
