import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { RequestHandler } from 'express';
import { destroyAfterPendingIo } from '@racedata/core';
import type { Lease, LegacyMessage } from '../queue/legacy-queues';

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
  /** Sockets whose close already waits for the client's answer (see lingerOnClose). */
  private readonly lingering = new WeakSet<Socket>();
  private readonly bodies = new MessageBodies();

  /** App-level middleware: a request confirms every response written earlier on its connection. */
  readonly confirmOnNextRequest: RequestHandler = (req, _res, next) => {
    this.confirmEarlier(req.socket);
    next();
  };

  /** A request arrived on `socket`: the client read every response written before it. */
  confirmEarlier(socket: Socket): void {
    const waiting = this.unconfirmed.get(socket);
    if (waiting) {
      this.unconfirmed.delete(socket);
      for (const confirm of waiting) confirm();
    }
  }

  deliver(req: IncomingMessage, res: ServerResponse, lease: Lease): void {
    const socket = req.socket;
    const body = this.bodies.of(lease.message);
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
    // Once per connection: the change stays for the socket's life.
    if (!this.lingering.has(socket)) {
      this.lingering.add(socket);
      lingerOnClose(socket);
    }
    // One string for head and body: Node then sends the response in one write, not a writev of
    // the two (that write was the largest part of a delivery's CPU).
    res.writeHead(200, [
      'cache-control',
      'no-store',
      'content-type',
      'application/json; charset=utf-8',
      'content-length',
      body.bytes,
    ]);
    res.end(body.text, () => {
      written = true;
      if (socket.destroyed) return;
      let waiting = this.unconfirmed.get(socket);
      if (!waiting) this.unconfirmed.set(socket, (waiting = new Set()));
      waiting.add(confirm);
    });
  }
}

/** A listen answer's body: the XML document as a JSON string, with its UTF-8 length. */
interface Body {
  readonly text: string;
  readonly bytes: string;
}

/** Bodies made once per message, however many users' polls it answers. */
class MessageBodies {
  private readonly byMessage = new WeakMap<LegacyMessage, Body>();

  of(message: LegacyMessage): Body {
    let body = this.byMessage.get(message);
    if (!body) {
      const text = JSON.stringify(message.xml);
      body = { text, bytes: String(Buffer.byteLength(text, 'utf8')) };
      this.byMessage.set(message, body);
    }
    return body;
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
