import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { RequestHandler } from 'express';
import { destroyAfterPendingIo, peerHasReset } from '@racedata/core';
import type { Lease } from '../queue/legacy-queues';

/** How long a closing connection waits for the client's own close before it is cut. */
const LINGER_MS = 5_000;
/**
 * How long a client's close is held open before its verdict: a reset caused by an answer the
 * client never read travels one round trip behind the answer, and may arrive after the client's
 * FIN (which it sent before the answer reached it).
 */
const RESET_GRACE_MS = 200;

/** One message on its way to the client of a connection, until the connection shows its fate. */
interface InFlight {
  /** The kernel took every byte of the answer. */
  written: boolean;
  settle(delivered: boolean): void;
}

/**
 * Hands leased messages to long-poll responses and settles each lease by what the connection
 * shows afterwards. A write's callback only says the kernel took the bytes: a client that hung up
 * with them unread answers with a reset, and its message must go back to the head of the queue.
 * So a written message is acked only on evidence the client read it: its next request on the
 * same connection, or a close that was no reset.
 *
 * A client that hangs up just before the answer reaches it has sent its FIN first; after that,
 * Node reads only end-of-stream, never the reset its kernel sends when the answer arrives. So a
 * connection carrying a message asks the kernel (peerHasReset) right after the write, and again
 * when the client's FIN is read, and holds our own FIN until then: after both sides' FINs a
 * connection has no peer whichever way it ended, and the question has no answer any more.
 */
export class Delivery {
  private readonly inFlight = new WeakMap<Socket, Set<InFlight>>();
  /** Sockets whose close already waits for the client's answer (see watch). */
  private readonly watched = new WeakSet<Socket>();

  /** App-level middleware: a request confirms every response written earlier on its connection. */
  readonly confirmOnNextRequest: RequestHandler = (req, _res, next) => {
    this.confirmEarlier(req.socket);
    next();
  };

  /** A request arrived on `socket`: the client read every response written before it. */
  confirmEarlier(socket: Socket): void {
    const messages = this.inFlight.get(socket);
    if (!messages) return;
    for (const message of messages) if (message.written) message.settle(true);
  }

  deliver(req: IncomingMessage, res: ServerResponse, lease: Lease): void {
    const socket = req.socket;
    const answer = lease.message.document.answer();
    let messages = this.inFlight.get(socket);
    if (!messages) this.inFlight.set(socket, (messages = new Set()));
    const onClose = (hadError: boolean) => message.settle(message.written && !hadError);
    const message: InFlight = {
      written: false,
      settle: (delivered) => {
        if (!messages.delete(message)) return;
        socket.off('close', onClose);
        if (delivered) lease.ack();
        else lease.release();
      },
    };
    messages.add(message);
    socket.once('close', onClose);
    if (!this.watched.has(socket)) {
      this.watched.add(socket);
      this.watch(socket);
    }
    // A small answer is a string, which Node sends in one write with the head rather than a
    // writev of the two (that write was the largest part of a delivery's CPU); a large one is
    // bytes, written as they are (see QueuedDocument).
    res.writeHead(200, [
      'cache-control',
      'no-store',
      'content-type',
      'application/json; charset=utf-8',
      'content-length',
      answer.length,
    ]);
    res.end(answer.body, () => {
      message.written = true;
      // On loopback the reset of a client gone before the answer arrived is back by now.
      if (socket.destroyed || peerHasReset(socket)) message.settle(false);
    });
  }

  /** Messages on the connection that its client has not yet shown it read. */
  private carrying(socket: Socket): boolean {
    return (this.inFlight.get(socket)?.size ?? 0) > 0;
  }

  private settleAll(socket: Socket, delivered: boolean): void {
    for (const message of this.inFlight.get(socket) ?? []) message.settle(delivered);
  }

  /** Installed once per connection: the changes stay for the socket's life. */
  private watch(socket: Socket): void {
    // Before the HTTP server's own listener, which ends our side as soon as the client's ends.
    socket.prependListener('end', () => {
      if (!this.carrying(socket)) return;
      if (peerHasReset(socket)) {
        this.settleAll(socket, false);
        return;
      }
      holdEndFor(socket, RESET_GRACE_MS, () => {
        if (peerHasReset(socket)) this.settleAll(socket, false);
      });
    });
    // Node destroys a Connection: close socket as soon as the response is written, which would
    // hide the client's answer; waiting for its FIN (read) or reset (unread) shows it.
    const s = socket as Socket & SoonDestroyable;
    if (typeof s.destroySoon !== 'function') return;
    s.destroySoon = () => {
      // A message still in flight: our FIN waits for the client's, so the verdict stays possible.
      if (!this.carrying(socket)) socket.end();
      // After a stall, the linger's timer runs before the client's reset is read (see pending-io).
      socket.setTimeout(LINGER_MS, () => {
        socket.end();
        destroyAfterPendingIo(socket);
      });
    };
  }
}

/**
 * Defers the next socket.end() (the HTTP server's answer to the client's FIN) by `ms`, then runs
 * `before` and ends. The socket stays half-open meanwhile, which costs the client nothing: it has
 * already closed its side.
 */
function holdEndFor(socket: Socket, ms: number, before: () => void): void {
  const end = socket.end;
  socket.end = function heldEnd(this: Socket, ...args: unknown[]) {
    socket.end = end;
    const timer = setTimeout(() => {
      before();
      (end as (...a: unknown[]) => Socket).apply(socket, args);
    }, ms);
    socket.once('close', () => clearTimeout(timer));
    return socket;
  } as typeof socket.end;
}

interface SoonDestroyable {
  destroySoon?: () => void;
}
