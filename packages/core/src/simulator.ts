import type { RequestListener, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHttpLifecycle, type HttpLimits } from './server/http-lifecycle';
import type { UpgradeRouter } from './server/upgrade-router';
import type { SimulatorSettings } from './settings';

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

export interface SimulatorParts {
  readonly app: RequestListener;
  readonly handler?: RequestListener;
  readonly settings: Pick<SimulatorSettings, 'port' | 'host'> & HttpLimits;
  readonly upgrades: UpgradeRouter;
  /** The simulator's own replay of its recordings, started once it listens. */
  readonly replay: { start(): void; stop(): void } | undefined;
  /** The simulator's own shutdown (held polls, queues, sockets), after every onClose task. */
  readonly shutdown: () => void | Promise<void>;
}

/**
 * The part of a factory both simulators share: one HTTP lifecycle, replay started on listen and
 * stopped on close, and the tasks callers add with onClose() run before the simulator's own.
 */
export function assembleSimulator(parts: SimulatorParts): Simulator {
  const closeTasks: Array<() => void | Promise<void>> = [];
  const replay = parts.replay;
  if (replay) closeTasks.push(() => replay.stop());
  const lifecycle = createHttpLifecycle({
    handler: parts.handler ?? parts.app,
    upgrades: parts.upgrades,
    limits: parts.settings,
    beforeClose: async () => {
      for (const task of closeTasks) await task();
      await parts.shutdown();
    },
  });
  return {
    app: parts.app,
    server: lifecycle.server,
    listen: async (port = parts.settings.port, host = parts.settings.host) => {
      const address = await lifecycle.listen(port, host);
      replay?.start();
      return address;
    },
    close: () => lifecycle.close(),
    onClose: (task) => {
      closeTasks.push(task);
    },
  };
}
