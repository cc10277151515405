import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { RequestHandler } from 'express';
import { destroyAfterPendingIo } from '@racedata/core';
import type { Lease } from '../queue/legacy-queues';

/** How long a closing connection waits for the client's own close before it is cut. */
const LINGER_MS = 5_000;

/**
 * Hands leased messages to long-poll responses and settles each lease by what the connection
 * shows afterwards. A write's callback only says the kernel took the bytes: a client that hung up
 * with them unread answers with a reset, and its message must go back to the head of the queue.
 * So a written message is acked only on evidence the client read it: its next request on the
 * same connection, or a clean close; a reset (or a close before the write completed) releases it.
 */
export class Delivery {
  private readonly unconfirmed = new WeakMap<Socket, Set<() => void>>();

  /** App-level middleware: a request confirms every response written earlier on its connection. */
  readonly confirmOnNextRequest: RequestHandler = (req, _res, next) => {
    const waiting = this.unconfirmed.get(req.socket);
    if (waiting) {
      this.unconfirmed.delete(req.socket);
      for (const confirm of waiting) confirm();
    }
    next();
  };

  deliver(req: IncomingMessage, res: ServerResponse, lease: Lease): void {
    const socket = req.socket;
    const body = Buffer.from(JSON.stringify(lease.message.xml), 'utf8');
    let written = false;
    let settled = false;
    const settle = (delivered: boolean) => {
      if (settled) return;
      settled = true;
      socket.off('close', onClose);
      this.unconfirmed.get(socket)?.delete(confirm);
      if (delivered) lease.ack();
      else lease.release();
    };
    const onClose = (hadError: boolean) => settle(written && !hadError);
    const confirm = () => settle(true);
    socket.once('close', onClose);
    // Node destroys a Connection: close socket as soon as the response is written, which would
    // hide the client's answer; half-closing instead waits for its FIN (read) or RST (unread).
    res.prependOnceListener('finish', () => lingerOnClose(socket));
    res.statusCode = 200;
    res.setHeader('content-type', 'application/json; charset=utf-8');
    res.setHeader('content-length', body.length);
    res.end(body, () => {
      written = true;
      if (socket.destroyed) return;
      let waiting = this.unconfirmed.get(socket);
      if (!waiting) this.unconfirmed.set(socket, (waiting = new Set()));
      waiting.add(confirm);
    });
  }
}

interface SoonDestroyable {
  destroySoon?: () => void;
}

function lingerOnClose(socket: Socket): void {
  const s = socket as Socket & SoonDestroyable;
  if (typeof s.destroySoon !== 'function') return;
  s.destroySoon = () => {
    socket.end();
    // After a stall, the linger's timer runs before the client's reset is read (see pending-io).
    socket.setTimeout(LINGER_MS, () => destroyAfterPendingIo(socket));
  };
}
