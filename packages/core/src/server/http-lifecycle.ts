import { createServer, type IncomingMessage, type RequestListener, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { AddressInfo, Socket } from 'node:net';
import { resolveSettings } from '../settings-resolve';
import type { SimulatorSettings } from '../settings';
import { BodyBudget, withBodyBudget } from './body-budget';
import { destroyAfterPendingIo } from './pending-io';
import type { UpgradeRouter } from './upgrade-router';
import { CLOSE_GRACE_MS } from './ws-constants';

/** The settings that bound what one slow or greedy client can hold of the server. */
export type HttpLimits = Pick<
  SimulatorSettings,
  'httpHeadersTimeoutMs' | 'httpRequestTimeoutMs' | 'maxInflightBodyBytes' | 'maxBodyBytes'
>;

export interface HttpLifecycle {
  readonly server: Server;
  /** Request-body bytes claimed by requests still being received or answered. */
  readonly bodyBytesInFlight: number;
  listen(port?: number, host?: string): Promise<AddressInfo>;
  /** Idempotent; resolves once the server and every connection are closed. */
  close(): Promise<void>;
}

export interface HttpLifecycleOptions {
  handler: RequestListener;
  upgrades?: UpgradeRouter;
  /** Answers held polls and closes WebSockets; runs before the server stops. */
  beforeClose?: () => void | Promise<void>;
  /** How long in-flight responses get to finish before their sockets are cut (CLOSE_GRACE_MS). */
  graceMs?: number;
  /** Defaults to the settings' defaults. */
  limits?: HttpLimits;
}

/**
 * How often Node looks for requests past their deadline; its default (30 s) would let a 300 ms
 * deadline run 30 s late, so it follows the shortest deadline.
 */
function checkingInterval(limits: HttpLimits): number {
  const deadlines = [limits.httpHeadersTimeoutMs, limits.httpRequestTimeoutMs].filter((ms) => ms > 0);
  if (deadlines.length === 0) return 30_000;
  return Math.min(30_000, Math.max(10, Math.floor(Math.min(...deadlines) / 4)));
}

export function createHttpLifecycle(options: HttpLifecycleOptions): HttpLifecycle {
  const limits = options.limits ?? resolveSettings('json');
  const budget = new BodyBudget(limits.maxInflightBodyBytes);
  // requestTimeout covers receiving the request (head and body), not the answer, so a long poll
  // held for a minute is safe while a client trickling its body is cut with 408.
  const server = createServer(
    {
      headersTimeout: limits.httpHeadersTimeoutMs,
      requestTimeout: limits.httpRequestTimeoutMs,
      connectionsCheckingInterval: checkingInterval(limits),
    },
    withBodyBudget(options.handler, budget, limits.maxBodyBytes),
  );
  server.keepAliveTimeout = 5_000;
  // Node destroys a socket whose keep-alive timeout fires unless the server handles 'timeout'.
  // Straight from the timer, a client's reset that arrived while the process stalled would go
  // unread, and a long poll's answer the client never read would count as delivered.
  server.on('timeout', (socket: Socket) => destroyAfterPendingIo(socket));
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
    get bodyBytesInFlight() {
      return budget.inUse;
    },
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
          }, options.graceMs ?? CLOSE_GRACE_MS);
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
