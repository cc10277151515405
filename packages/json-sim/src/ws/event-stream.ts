import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import {
  admitBytes,
  lifelongSocket,
  type FrameSocket,
  type HubSubscriber,
  Bursts,
  closeWithGrace,
  writeAdmitted,
  sharedTextFrame,
  type HeldFrames,
  TransientHub,
  type SendLimit,
  type SharedTextFrame,
  WS_CLOSE,
  type Clock,
  type EventInput,
  type Logger,
  type SessionLog,
  type SimulatorSettings,
  type TimerHandle,
  type TokenService,
  type User,
} from '@racedata/core';
import { type Faults, type Journal } from '@racedata/control';
import type { TransientFanOut } from '../channel-bus';
import {
  dataMessage,
  describeDeadline,
  authenticatedMessage,
  authenticationErrorMessage,
  connectionMessage,
  pingMessage,
  tokenFromFirstMessage,
} from './stream-messages';

export interface EventStreamDeps {
  tokens: TokenService;
  clock: Clock;
  logger: Logger;
  settings: Pick<
    SimulatorSettings,
    'wsAuthTimeoutMs' | 'wsPingIntervalMs' | 'wsMaxBufferedBytes' | 'wsMaxSessionsPerUser'
  >;
  journal?: Journal;
  /** Fault rules: drop deliveries, disconnect sessions; connections/close closes them. */
  faults?: Faults;
  /** LOG_REQUESTS: a line when an authenticated session opens and when it closes. */
  sessions?: SessionLog | undefined;
}

export const EVENT_STREAM_PATH = '/customerapi/event-stream';

// A token is tiny; anything much larger is garbage and must not be buffered.
export const MAX_CLIENT_FRAME = 64 * 1024;

/**
 * /customerapi/event-stream (interface 3, 4.5): Connection on connect, the token as the first
 * message within the deadline, then Data for the subscription's transient channels and Pings.
 */
export class EventStream implements TransientFanOut {
  // No compression (ws's default, stated): every message is small and goes to many clients.
  private readonly wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_CLIENT_FRAME,
    perMessageDeflate: false,
  });
  private readonly cleanups = new Set<() => void>();
  /** Data frames are written a burst at a time (see Bursts). */
  private readonly bursts: Bursts;
  /** Authenticated sessions, each seeing only its user's channels. */
  private readonly hub: TransientHub<SharedTextFrame>;
  /** Authenticated connections by user key. */
  private readonly perUser = new Map<string, number>();

  constructor(private readonly deps: EventStreamDeps) {
    this.bursts = new Bursts(deps.logger);
    this.hub = new TransientHub<SharedTextFrame>(
      deps.logger,
      (users, channel) => {
        deps.journal?.deliveredEach(
          users.map((user) => user.key),
          { transport: 'event-stream', channel: channel ?? '', status: 101 },
        );
      },
      deps.faults && ((user, channel) => deps.faults?.drops(user.key, 'event-stream', channel) ?? false),
    );
    this.wss.on('connection', (ws, req: IncomingMessage) => this.onConnection(ws, req));
    this.sendLimit = {
      maxBufferedBytes: deps.settings.wsMaxBufferedBytes,
      onDrop: (buffered) => deps.logger.warn({ buffered }, 'event-stream client too slow; dropping it'),
    };
  }

  get clientCount(): number {
    return this.wss.clients.size;
  }

  /** Authenticated sessions receiving Data. */
  get subscriberCount(): number {
    return this.hub.size;
  }

  /** Authenticated connections by user key. */
  get sessionsByUser(): ReadonlyMap<string, number> {
    return this.perUser;
  }

  /** Closes every connection (1000, POST /_sim/reset with closeSockets); returns how many. */
  closeAll(): number {
    // Data handed over before the reset still reaches its clients, before their close.
    this.bursts.flush();
    const clients = [...this.wss.clients];
    for (const ws of clients) closeWithGrace(ws, WS_CLOSE.NORMAL, 'simulator reset');
    return clients.length;
  }

  /**
   * A transient message: serialised, encoded and framed once; the same frame bytes are written
   * to every session subscribed to its channel.
   */
  broadcast(input: EventInput): number {
    return this.hub.publish(input.channel, sharedTextFrame(dataMessage(this.deps.clock.now(), input)));
  }

  readonly handleUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    this.wss.handleUpgrade(req, socket, head, (ws) => this.wss.emit('connection', ws, req));
  };

  /** Closes every client (1001) and resolves once they are gone. */
  async close(): Promise<void> {
    this.bursts.flush();
    for (const cleanup of [...this.cleanups]) cleanup();
    const clients = [...this.wss.clients];
    await Promise.all(
      clients.map(
        (ws) =>
          new Promise<void>((resolve) => {
            if (ws.readyState === ws.CLOSED) return resolve();
            ws.once('close', () => resolve());
            closeWithGrace(ws, WS_CLOSE.GOING_AWAY, 'server shutting down');
          }),
      ),
    );
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }

  private onConnection(ws: WebSocket, req: IncomingMessage): void {
    const { clock, tokens, logger, settings, faults, journal, sessions } = this.deps;
    const { hub } = this;
    const authTimer: TimerHandle = clock.setTimeout(
      () => reject(`No token received within ${describeDeadline(settings.wsAuthTimeoutMs)}`),
      settings.wsAuthTimeoutMs,
    );
    let pingTimer: TimerHandle | undefined;
    let unsubscribe: (() => void) | undefined;
    let counted: string | undefined;
    let unregister: (() => void) | undefined;
    const cleanup = () => {
      authTimer.cancel();
      pingTimer?.cancel();
      unsubscribe?.();
      unsubscribe = undefined;
      unregister?.();
      unregister = undefined;
      if (counted !== undefined) this.leave(counted);
      counted = undefined;
      this.cleanups.delete(cleanup);
    };
    this.cleanups.add(cleanup);
    const reject = (message: string) => {
      cleanup();
      ws.send(authenticationErrorMessage(clock.now(), message));
      // The interface closes with 1008 (policy violation) after an AuthenticationError.
      ws.close(WS_CLOSE.POLICY_VIOLATION, message.slice(0, 120));
    };

    ws.on('error', (err) => logger.debug({ err }, 'event-stream socket error'));
    ws.on('close', (code: number) => {
      if (counted !== undefined) {
        journal?.closed({ user: counted, transport: 'event-stream', code });
        sessions?.closed(counted, 'event-stream', code);
      }
      cleanup();
    });
    ws.send(connectionMessage(clock.now(), settings.wsAuthTimeoutMs));

    const onFirstMessage = (data: RawData) => {
      authTimer.cancel();
      const token = tokenFromFirstMessage(rawToText(data));
      let user: User;
      try {
        if (token === undefined) throw new Error('no token');
        user = tokens.verifyToken(token);
      } catch {
        reject('Invalid token');
        return;
      }
      const key = user.key;
      const open = (this.perUser.get(key) ?? 0) + 1;
      if (open > settings.wsMaxSessionsPerUser) {
        logger.warn({ user: key, open }, 'event-stream session limit reached for this user');
        reject(`Too many sessions for this user (WS_MAX_SESSIONS_PER_USER ${settings.wsMaxSessionsPerUser})`);
        return;
      }
      this.perUser.set(key, open);
      counted = key;
      // Subscribe only now: data raised before authentication is never delivered.
      const connection = new HeldData(ws, user, this.sendLimit, this.bursts);
      unsubscribe = hub.join(connection);
      ws.send(authenticatedMessage(clock.now(), key));
      pingTimer = clock.setInterval(() => {
        // A Ping follows the Data handed over before it.
        connection.flushHeld();
        ws.send(pingMessage(clock.now()));
      }, settings.wsPingIntervalMs);
      logger.debug({ user: key }, 'event-stream client authenticated');
      sessions?.opened(key, 'event-stream');
      // Last: a disconnect rule in force closes the session as soon as it is registered.
      unregister = faults?.register({
        user: key,
        transport: 'event-stream',
        path: (req.url ?? '').split('?')[0] as string,
        close: (code, reason) => {
          connection.flushHeld();
          closeWithGrace(ws, code, reason);
        },
      });
    };
    // Later messages have no listener: ws reads and drops them (each at most maxPayload).
    ws.once('message', onFirstMessage);
  }

  private leave(key: string): void {
    const left = (this.perUser.get(key) ?? 1) - 1;
    if (left === 0) this.perUser.delete(key);
    else this.perUser.set(key, left);
  }

  // One for every delivery: nothing is allocated per client and message.
  private readonly sendLimit: SendLimit;
}

/**
 * The Data frames one connection was handed in the current turn, written together when it ends
 * (Bursts): one frame as it is (the bytes every client shares), several copied into one buffer.
 */
class HeldData implements HeldFrames, HubSubscriber<SharedTextFrame> {
  /** The first frame of this burst; nearly every burst is one, held with no array made for it. */
  private first: SharedTextFrame | undefined;
  private more: SharedTextFrame[] | undefined;
  private heldBytes = 0;
  /** Resolved once (see lifelongSocket): a delivery then reads no sender state of ws's. */
  private readonly socket: FrameSocket | undefined;

  constructor(
    private readonly ws: WebSocket,
    readonly user: User,
    private readonly limit: SendLimit,
    private readonly bursts: Bursts,
  ) {
    this.socket = lifelongSocket(ws);
  }

  /**
   * The hub's message for this connection's user, held for the burst (flushHeld writes it).
   * False when the client is gone, or dropped for not reading (as a write would drop it).
   */
  deliver(frame: SharedTextFrame): boolean {
    // What it holds counts as unread, as it would if each frame had been written at once.
    if (!admitBytes(this.ws, this.heldBytes, this.limit, this.socket)) return false;
    if (this.first === undefined) {
      this.bursts.hold(this);
      this.first = frame;
    } else {
      this.more ??= [];
      this.more.push(frame);
    }
    this.heldBytes += frame.frame.length;
    return true;
  }

  flushHeld(): void {
    const { first, more } = this;
    if (first === undefined) return;
    this.first = undefined;
    this.more = undefined;
    this.heldBytes = 0;
    // admitBytes() let these bytes through when they were handed over.
    const frames = more === undefined ? first.frame : Buffer.concat([first, ...more].map((f) => f.frame));
    writeAdmitted(this.ws, frames, this.socket);
  }
}

function rawToText(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}
