import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { CertifyError } from '../errors';
import type { CertifyTimings, ControlCalls } from '../types';
import {
  mountCertifySimulator,
  newCertifiedUser,
  type CertifiedUser,
  type CertifyConsole,
} from './certify-simulator';
import { ClientAttribution } from './client-attribution';
import { controlCalls } from './control-calls';
import { ForeignTraffic } from './foreign-traffic';
import { sessionLogger } from './session-logger';
import { TrafficLog } from './traffic-log';
import { recordRequests, recordUpgrades } from './traffic-recorder';

export interface CertifyServerOptions extends CertifyConsole {
  readonly simulator: 'json' | 'legacy';
  readonly timings: CertifyTimings;
  /** 0 (the default) for a free port; --attach gives a fixed one. */
  readonly port?: number;
  /** Loopback unless --attach serves a container on another address. */
  readonly host?: string;
  /** --attach: a client started by hand; traffic is tied to it by the run's credentials. */
  readonly attached?: boolean;
  /** Real time, ms since the epoch. */
  readonly now?: () => number;
}

export interface CertifyServer {
  readonly simulator: 'json' | 'legacy';
  readonly base: string;
  readonly wsBase: string;
  readonly port: number;
  readonly user: CertifiedUser;
  readonly traffic: TrafficLog;
  /** What was not the certified client's (--attach): counted, sampled, never graded. */
  readonly foreign: ForeignTraffic;
  readonly control: ControlCalls;
  /** The QA console's address, when the console's assets were given. */
  readonly console: string | undefined;
  /** Ends the traffic log's waits, the simulator (held polls answered, sockets closed) and the server. */
  close(): Promise<void>;
}

/** How long open connections get to finish once the server closes, before they are cut. */
const CLOSE_GRACE_MS = 1_000;

/**
 * The server a certification runs on: certify's own loopback http.Server with the simulator
 * mounted behind the traffic recorder, so every request, upgrade and session the client makes is
 * in the traffic log. No credential is logged or recorded: the auth scheme and user key only.
 */
export async function startCertifyServer(options: CertifyServerOptions): Promise<CertifyServer> {
  const now = options.now ?? Date.now;
  const user = newCertifiedUser();
  const traffic = new TrafficLog();
  const record = traffic.record.bind(traffic);
  const foreign = new ForeignTraffic();
  const mounted = mountCertifySimulator(
    options.simulator,
    options.timings,
    user,
    sessionLogger(record, now),
    options,
  );
  const deps = {
    users: { keys: new Set([user.key]), fixedTokens: new Map([[user.fixedToken, user.key]]) },
    ownCallToken: randomBytes(12).toString('hex'),
    record,
    attribution: new ClientAttribution(options.attached === true, user),
    foreign: foreign.record.bind(foreign),
    now,
  };
  const server = createServer(recordRequests(mounted.handle, deps));
  server.on('upgrade', recordUpgrades(mounted.handleUpgrade, deps));
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  const host = options.host ?? '127.0.0.1';
  const requested = options.port ?? 0;
  let address: AddressInfo;
  try {
    address = await listen(server, requested, host);
  } catch (err) {
    await mounted.close();
    throw new CertifyError(
      'PORT_UNAVAILABLE',
      { port: requested, detail: (err as Error).message },
      { cause: err },
    );
  }
  const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  const hostPort = `${shown.includes(':') ? `[${shown}]` : shown}:${address.port}`;
  const base = `http://${hostPort}`;
  let closing: Promise<void> | undefined;
  return {
    simulator: options.simulator,
    base,
    wsBase: `ws://${hostPort}`,
    console: options.consoleAssets ? `${base}/_sim/ui` : undefined,
    port: address.port,
    user,
    traffic,
    foreign,
    control: controlCalls({ base, user: user.key, ownCallToken: deps.ownCallToken }),
    close: () => {
      closing ??= (async () => {
        traffic.stop();
        await mounted.close();
        await stopServer(server, sockets);
      })();
      return closing;
    },
  };
}

function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

function stopServer(server: Server, sockets: Set<Socket>): Promise<void> {
  return new Promise((resolve) => {
    const grace = setTimeout(() => {
      for (const socket of sockets) socket.destroy();
    }, CLOSE_GRACE_MS);
    server.close(() => {
      clearTimeout(grace);
      resolve();
    });
    server.closeIdleConnections();
  });
}
