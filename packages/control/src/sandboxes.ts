import { randomBytes } from 'node:crypto';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import {
  type Clock,
  type Logger,
  type SimulatorSettings,
  type TimerHandle,
  type User,
  UserTable,
} from '@racedata/core';
import { controlPlaneError } from './errors';
import type { SandboxRequest } from './sandbox-params';
import type { MountedSimulator, SandboxFactory } from './simulator-types';
import type { SandboxUser, SandboxInfo } from './wire';

export const SANDBOX_PREFIX = '/sandboxes/';

interface Sandbox {
  readonly id: string;
  readonly sim: MountedSimulator;
  readonly users: SandboxUser[];
  readonly createdAt: number;
  lastUsedAt: number;
  /** Requests being answered and upgraded sockets still open: a busy sandbox never idles out. */
  open: number;
}

export interface SandboxesOptions {
  readonly settings: SimulatorSettings;
  readonly users: UserTable;
  readonly factory: SandboxFactory;
  /** Real time for idling (not the simulator's advanceable clock: a clock advance is not idleness). */
  readonly clock: Clock;
  readonly logger: Logger;
}

/**
 * Isolated simulators inside a running one (POST /_sim/sandboxes), each served under
 * /sandboxes/{id}/ with its own store or queues, eventIds, journal, faults, clock, tokens and
 * replay: a sandbox is a whole simulator of the same kind, built by the same factory, so every
 * path, WebSocket endpoint and /_sim/* route works under its base path unchanged.
 */
export class Sandboxes {
  private readonly live = new Map<string, Sandbox>();
  private sweeper: TimerHandle | undefined;

  constructor(private readonly options: SandboxesOptions) {}

  get size(): number {
    return this.live.size;
  }

  get max(): number {
    return this.options.settings.sandboxMax;
  }

  create(request: SandboxRequest): SandboxInfo {
    const { settings, clock } = this.options;
    if (this.live.size >= settings.sandboxMax) {
      throw controlPlaneError(
        'SANDBOX_LIMIT',
        `${settings.sandboxMax} sandboxes exist already (SANDBOX_MAX); delete one with DELETE /_sim/sandboxes/{id}`,
      );
    }
    let id = newId();
    while (this.live.has(id)) id = newId();
    const users = freshUsers(this.options.users);
    const sim = this.options.factory(sandboxSettings(settings, request), users);
    const now = clock.now();
    const sandbox: Sandbox = {
      id,
      sim,
      users: users.users.map(describeUser),
      createdAt: now,
      lastUsedAt: now,
      open: 0,
    };
    this.live.set(id, sandbox);
    this.sweeper ??= clock.setInterval(() => this.sweep(), Math.min(settings.sandboxIdleMs, 60_000));
    this.options.logger.info({ sandbox: id }, 'sandbox created');
    return info(sandbox);
  }

  list(): SandboxInfo[] {
    return [...this.live.values()].map(info);
  }

  /** Closes the sandbox's sessions and held polls and frees it; false when there is none. */
  async delete(id: string): Promise<boolean> {
    const sandbox = this.live.get(id);
    if (!sandbox) return false;
    this.live.delete(id);
    if (this.live.size === 0) this.stopSweeper();
    await sandbox.sim.close();
    this.options.logger.info({ sandbox: id }, 'sandbox deleted');
    return true;
  }

  async closeAll(): Promise<void> {
    this.stopSweeper();
    const all = [...this.live.values()];
    this.live.clear();
    await Promise.all(all.map((s) => s.sim.close()));
  }

  /** Serves /sandboxes/{id}/... from the sandbox, everything else from `inner`. */
  withSandboxes(inner: RequestListener): RequestListener {
    return (req, res) => {
      const routed = this.route(req.url ?? '/');
      if (!routed) return inner(req, res);
      if (!routed.sandbox) return notFound(res, routed.id);
      const { sandbox, rest } = routed;
      req.url = rest;
      this.enter(sandbox);
      res.once('close', () => this.leave(sandbox));
      sandbox.sim.handle(req, res);
    };
  }

  /** The upgrade counterpart: false when the path is not a sandbox's. */
  readonly handleUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): boolean => {
    const routed = this.route(req.url ?? '/');
    if (!routed) return false;
    if (!routed.sandbox) {
      socket.end(notFoundResponse(routed.id));
      return true;
    }
    const { sandbox, rest } = routed;
    req.url = rest;
    this.enter(sandbox);
    socket.once('close', () => this.leave(sandbox));
    sandbox.sim.handleUpgrade(req, socket, head);
    return true;
  };

  private route(url: string): { id: string; sandbox: Sandbox | undefined; rest: string } | undefined {
    if (!url.startsWith(SANDBOX_PREFIX)) return undefined;
    const afterPrefix = url.slice(SANDBOX_PREFIX.length);
    const end = afterPrefix.search(/[/?]/);
    const id = end === -1 ? afterPrefix : afterPrefix.slice(0, end);
    let rest = end === -1 ? '/' : afterPrefix.slice(end);
    if (rest.startsWith('?')) rest = `/${rest}`;
    return { id, sandbox: this.live.get(id), rest };
  }

  private enter(sandbox: Sandbox): void {
    sandbox.open++;
    sandbox.lastUsedAt = this.options.clock.now();
  }

  private leave(sandbox: Sandbox): void {
    sandbox.open--;
    sandbox.lastUsedAt = this.options.clock.now();
  }

  private sweep(): void {
    const now = this.options.clock.now();
    for (const sandbox of [...this.live.values()]) {
      if (sandbox.open > 0 || now - sandbox.lastUsedAt < this.options.settings.sandboxIdleMs) continue;
      this.options.logger.info({ sandbox: sandbox.id }, 'sandbox idle; deleting it (SANDBOX_IDLE_MS)');
      void this.delete(sandbox.id);
    }
  }

  private stopSweeper(): void {
    this.sweeper?.cancel();
    this.sweeper = undefined;
  }
}

function newId(): string {
  return randomBytes(4).toString('hex');
}

/** The parent's users with tokens of their own: a token of one sandbox opens no other. */
function freshUsers(users: UserTable): UserTable {
  return new UserTable(
    users.users.map((user) => Object.freeze({ ...user, token: randomBytes(12).toString('base64url') })),
  );
}

function describeUser(user: User): SandboxUser {
  return { key: user.key, secret: user.secret, token: user.token, channels: [...user.channels].sort() };
}

/**
 * A sandbox takes a sixteenth of the parent's memory budgets and a quarter of its journal, so
 * SANDBOX_MAX sandboxes stay within a known multiple of one simulator's memory; it cannot nest.
 * Its JWT signing key is random and its own: with the parent's (JWT_SECRET) a JWT issued by one
 * sandbox, or by the parent, verified in every other sandbox, since all share the same user keys.
 */
function sandboxSettings(parent: SimulatorSettings, request: SandboxRequest): Partial<SimulatorSettings> {
  return {
    ...parent,
    jwtSecret: randomBytes(32).toString('hex'),
    sandboxMax: 0,
    eventStoreMax: Math.max(1, Math.floor(parent.eventStoreMax / 16)),
    eventStoreMaxBytes: Math.max(1, Math.floor(parent.eventStoreMaxBytes / 16)),
    legacyQueueMaxBytes: Math.max(1, Math.floor(parent.legacyQueueMaxBytes / 16)),
    journalMax: Math.max(1, Math.floor(parent.journalMax / 4)),
    // A sandbox plays no race day of its own until POST /sandboxes/{id}/_sim/race-day starts one.
    raceDay: undefined,
    autoReplayIntervalMs: request.replay?.intervalMs,
    maxDelayMs: request.replay?.maxDelayMs,
    initialDelayMs: request.replay?.initialDelayMs,
    replayRebaseDates: request.replay?.rebaseDates ?? parent.replayRebaseDates,
    ...(request.longPollTimeoutMs !== undefined && { longPollTimeoutMs: request.longPollTimeoutMs }),
  };
}

function info(sandbox: Sandbox): SandboxInfo {
  return {
    id: sandbox.id,
    basePath: `/sandboxes/${sandbox.id}`,
    users: sandbox.users,
    createdAt: new Date(sandbox.createdAt).toISOString(),
    lastUsedAt: new Date(sandbox.lastUsedAt).toISOString(),
  };
}

function notFoundBody(id: string): string {
  return JSON.stringify({
    status: 'fail',
    code: 'NOT_FOUND',
    message: `no sandbox "${id.slice(0, 40)}" (deleted, expired after SANDBOX_IDLE_MS, or never created)`,
  });
}

function notFound(res: ServerResponse, id: string): void {
  const body = notFoundBody(id);
  res.writeHead(404, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
  });
  res.end(body);
}

function notFoundResponse(id: string): string {
  const body = notFoundBody(id);
  return (
    'HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  );
}
