import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import {
  Bursts,
  rejectUpgrade,
  toSimError,
  type Clock,
  type Logger,
  type SessionLog,
  type TokenService,
  type TransientHub,
  type User,
} from '@racedata/core';
import { type Faults, type Journal } from '@racedata/control';
import { WebSocketServer, type WebSocket } from 'ws';
import { legacySimError } from '../errors';
import type { TransientXmlMessage } from '../legacy-bus';
import type { StompOptions } from './stomp-options';
import { FrameMemory } from './frame-memory';
import { StompSession } from './stomp-session';

export interface StompEndpointOptions {
  tokens: TokenService;
  hub: TransientHub<TransientXmlMessage>;
  clock: Clock;
  logger: Logger;
  options: StompOptions;
  /** The control plane: sessions closed by fault rules and connections/close, and journaled. */
  faults?: Faults;
  journal?: Journal;
  /**
   * LOG_REQUESTS: a line when a session opens, when its CONNECT is answered (version and
   * heart-beats negotiated) and when it closes, with its close code.
   */
  sessions?: SessionLog | undefined;
}

/** Subprotocols STOMP clients offer; a client that offers some fails if none is picked. */
const STOMP_SUBPROTOCOLS = ['v12.stomp', 'v11.stomp', 'v10.stomp'];

/**
 * STOMP over WebSocket. The token travels as an `authorization` header on the upgrade request
 * (the vendor's interface), so a bad or missing one is refused with HTTP 401 before any
 * WebSocket exists.
 */
export class StompEndpoint {
  private readonly wss: WebSocketServer;
  private readonly sessions = new Set<StompSession>();
  private readonly perUser = new Map<string, number>();
  private nextId = 1;
  private closing = false;
  private readonly frameMemory = new FrameMemory();
  /** The sessions' MESSAGE frames, written a burst at a time (see Bursts). */
  private readonly bursts: Bursts;

  constructor(private readonly deps: StompEndpointOptions) {
    this.bursts = new Bursts(deps.logger);
    this.wss = new WebSocketServer({
      noServer: true,
      clientTracking: false,
      perMessageDeflate: false,
      // Slack above the frame limit so an oversized frame in one message still reaches the
      // parser and gets an ERROR frame; far bigger messages are cut by ws with 1009.
      maxPayload: deps.options.limits.maxFrameBytes + 64 * 1024,
      handleProtocols: (offered) => STOMP_SUBPROTOCOLS.find((p) => offered.has(p)) ?? false,
    });
  }

  get size(): number {
    return this.sessions.size;
  }

  /** Open sessions by user key. */
  get sessionsByUser(): ReadonlyMap<string, number> {
    return this.perUser;
  }

  /** Shuts every session down (POST /_sim/reset with closeSockets); returns how many. */
  closeAll(): number {
    const all = [...this.sessions];
    for (const session of all) session.shutdown();
    return all.length;
  }

  readonly handleUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    if (this.closing) {
      const error = legacySimError('SHUTTING_DOWN', 'the simulator is shutting down');
      rejectUpgrade(socket, error.status, error.message);
      return;
    }
    let user: User;
    try {
      user = this.deps.tokens.verifyAuthorization(req.headers.authorization);
    } catch (err) {
      const error = toSimError(
        err,
        () => undefined,
        () => this.deps.logger.error({ err }, 'STOMP upgrade authentication failed'),
      );
      rejectUpgrade(socket, error.status, error.message);
      return;
    }
    const path = (req.url ?? '').split('?')[0] as string;
    this.wss.handleUpgrade(req, socket, head, (ws) => this.start(ws, user, path));
  };

  /** Closes every session (1001) and resolves once all sockets are gone. */
  async close(): Promise<void> {
    this.closing = true;
    const all = [...this.sessions];
    for (const session of all) session.shutdown();
    await Promise.all(all.map((s) => s.closed));
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }

  private start(ws: WebSocket, user: User, path: string): void {
    if (this.closing) {
      ws.terminate();
      return;
    }
    const id = `s${this.nextId++}`;
    const { hub, clock, logger, options, sessions } = this.deps;
    const session = new StompSession(ws, {
      id,
      user,
      hub,
      clock,
      logger,
      options,
      frameMemory: this.frameMemory,
      bursts: this.bursts,
      ...(sessions && {
        connected: (version, plan) =>
          sessions.connected(user.key, 'stomp', {
            version,
            sendEveryMs: plan.sendEvery,
            expectEveryMs: plan.expectEvery,
          }),
      }),
    });
    this.sessions.add(session);
    const open = (this.perUser.get(user.key) ?? 0) + 1;
    this.perUser.set(user.key, open);
    // Debug: the info line per session is LOG_REQUESTS's, so a busy start stays quiet by default.
    logger.debug({ session: id, user: user.key }, 'STOMP connection opened');
    this.deps.sessions?.opened(user.key, 'stomp');
    const registration: { unregister?: () => void } = {};
    void session.closed.then(() => {
      registration.unregister?.();
      this.deps.journal?.closed({ user: user.key, transport: 'stomp', code: session.closeCode });
      this.sessions.delete(session);
      const left = (this.perUser.get(user.key) ?? 1) - 1;
      if (left === 0) this.perUser.delete(user.key);
      else this.perUser.set(user.key, left);
      logger.debug({ session: id }, 'STOMP connection closed');
      this.deps.sessions?.closed(user.key, 'stomp', session.closeCode);
    });
    // Counted while it closes, so a client reconnecting in a loop cannot outrun the limit.
    if (open > options.maxSessionsPerUser) {
      logger.warn({ session: id, user: user.key, open }, 'STOMP session limit reached for this user');
      session.refuse(
        'too many sessions',
        `a user may hold at most ${options.maxSessionsPerUser} STOMP sessions at once (WS_MAX_SESSIONS_PER_USER)`,
      );
      return;
    }
    // Last: a disconnect rule in force closes the session as soon as it is registered.
    registration.unregister = this.deps.faults?.register({
      user: user.key,
      transport: 'stomp',
      path,
      close: (code, reason) => session.close(code, reason),
    });
  }
}
