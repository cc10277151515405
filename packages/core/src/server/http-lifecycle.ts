import { createServer, type IncomingMessage, type RequestListener, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { AddressInfo } from 'node:net';
import type { UpgradeRouter } from './upgrade-router';

export interface HttpLifecycle {
  readonly server: Server;
  listen(port?: number, host?: string): Promise<AddressInfo>;
  /** Idempotent; resolves once the server and every connection are closed. */
  close(): Promise<void>;
}

export interface HttpLifecycleOptions {
  handler: RequestListener;
  upgrades?: UpgradeRouter;
  /** Answers held polls and closes WebSockets; runs before the server stops. */
  beforeClose?: () => void | Promise<void>;
  /** How long in-flight responses get to finish before their sockets are cut. */
  graceMs?: number;
}

export function createHttpLifecycle(options: HttpLifecycleOptions): HttpLifecycle {
  const server = createServer(options.handler);
  // Long polls are held for a minute by default; Node's own timeouts must not cut them first.
  server.requestTimeout = 0;
  server.headersTimeout = 60_000;
  server.keepAliveTimeout = 5_000;
  // Upgraded sockets leave the server's connection list, so closeAllConnections() cannot reach a
  // WebSocket the endpoint missed; keep them here to cut at the end of the grace period.
  const upgraded = new Set<Duplex>();
  if (options.upgrades) {
    const route = options.upgrades.handle;
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      upgraded.add(socket);
      socket.once('close', () => upgraded.delete(socket));
      route(req, socket, head);
    });
  }
  let closing: Promise<void> | undefined;

  return {
    server,
    listen(port = 0, host = '127.0.0.1') {
      return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          resolve(server.address() as AddressInfo);
        });
      });
    },
    close() {
      closing ??= (async () => {
        await options.beforeClose?.();
        if (!server.listening) return;
        await new Promise<void>((resolve) => {
          const grace = setTimeout(() => {
            server.closeAllConnections();
            for (const socket of upgraded) socket.destroy();
          }, options.graceMs ?? 250);
          server.close(() => {
            clearTimeout(grace);
            resolve();
          });
          server.closeIdleConnections();
          // Responses written by beforeClose finish within a tick; then their sockets go idle.
          setImmediate(() => server.closeIdleConnections());
        });
      })();
      return closing;
    },
  };
}
