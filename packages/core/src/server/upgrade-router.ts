import type { IncomingMessage } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';

export type UpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer) => void;
export type UpgradeGate = (req: IncomingMessage, socket: Duplex, proceed: () => void) => void;

/** Answers a WebSocket upgrade with a plain HTTP error and drops the socket. */
export function rejectUpgrade(socket: Duplex, status: number, message: string): void {
  const body = JSON.stringify({ status: 'fail', message });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n` +
      'Connection: close\r\nContent-Type: application/json\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

/**
 * Routes upgrade requests by path to one WebSocket endpoint each, so several endpoints share
 * one HTTP server; unknown paths are refused instead of left hanging.
 */
export class UpgradeRouter {
  private readonly routes = new Map<string, UpgradeHandler>();
  private gateFn: UpgradeGate | undefined;
  private mounted: ((req: IncomingMessage, socket: Duplex, head: Buffer) => boolean) | undefined;

  add(path: string, handler: UpgradeHandler): this {
    this.routes.set(path, handler);
    return this;
  }

  /** Runs every routed upgrade through `gate` first (the control plane's fault rules). */
  gate(gate: UpgradeGate): this {
    this.gateFn = gate;
    return this;
  }

  /** Offers every upgrade to `handler` first; it returns true when it took it (sandboxes). */
  mount(handler: (req: IncomingMessage, socket: Duplex, head: Buffer) => boolean): this {
    this.mounted = handler;
    return this;
  }

  readonly handle = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    socket.on('error', () => socket.destroy());
    if (this.mounted?.(req, socket, head)) return;
    // Only the path matters; parsing the whole target with URL throws on junk like "http://[::1/".
    const pathname = (req.url ?? '/').split('?')[0] as string;
    const handler = this.routes.get(pathname) ?? this.routes.get(pathname.replace(/\/+$/, ''));
    if (!handler) {
      rejectUpgrade(socket, 404, `no WebSocket endpoint at ${pathname}`);
      return;
    }
    if (this.gateFn) this.gateFn(req, socket, () => handler(req, socket, head));
    else handler(req, socket, head);
  };
}
