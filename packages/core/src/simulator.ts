import type { RequestListener, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What each simulator factory returns, the same for both. The factory opens no port; a caller
 * learns everything else over HTTP and WebSocket, as a client would.
 */
export interface Simulator {
  /** The HTTP surface as a request listener (an express app), e.g. for supertest. */
  readonly app: RequestListener;
  /** The server listen() starts; the WebSocket upgrades are routed on it. */
  readonly server: Server;
  /** Defaults to the configured port and host; starts the auto replay once listening. */
  listen(port?: number, host?: string): Promise<AddressInfo>;
  /** Answers held polls (204), closes WebSockets, stops timers; resolves when nothing runs. */
  close(): Promise<void>;
  /** Runs on close(), before the server stops. */
  onClose(task: () => void | Promise<void>): void;
}
