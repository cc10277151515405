import {
  admitBytes,
  closeWithGrace,
  lifelongSocket,
  sendBounded,
  writeAdmitted,
  WS_CLOSE,
  type Bursts,
  type HeldFrames,
  type Clock,
  type FramedText,
  type FrameSocket,
  type HubSubscriber,
  type SendLimit,
  type Logger,
  type TimerHandle,
  type TransientHub,
  type User,
  HEART_BEAT,
  serializeFrame,
  StompFrameError,
  type OutgoingFrame,
  type StompFrame,
  type StompVersion,
  StompParser,
} from '@racedata/core';
import { WebSocket, type RawData } from 'ws';
import type { TransientXmlMessage } from '../legacy-bus';
import { HeartBeatTimers } from './stomp-heart-beat';
import {
  formatHeartBeat,
  negotiateHeartBeat,
  negotiateVersion,
  parseHeartBeat,
  type HeartBeatPlan,
} from './stomp-negotiation';
import type { StompOptions } from './stomp-options';
import type { FrameMemory } from './frame-memory';
import { frameHead, messageFrames, type FrameHead, type MessageFrames } from './message-frames';
import { isProblem, StompSubscriptions } from './stomp-subscriptions';

export interface StompSessionContext {
  readonly id: string;
  readonly user: User;
  readonly hub: TransientHub<TransientXmlMessage>;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly options: StompOptions;
  /** Where MESSAGE frames are built, shared by the endpoint's sessions. */
  readonly frameMemory: FrameMemory;
  /** Holds MESSAGE frames until the turn ends, then writes each session's in one write. */
  readonly bursts: Bursts;
  /** Told once CONNECT is answered, with what was negotiated (LOG_REQUESTS's `session connected`). */
  readonly connected?: (version: StompVersion, plan: HeartBeatPlan) => void;
}

type State = 'awaiting-connect' | 'connected' | 'closed';

/** Text frames: every client we serve reads those (stompjs 2.3.3 decodes binary ones as Latin-1). */
const TEXT_FRAMES = false;

/** Frames accepted and ignored: every subscription is auto-ack and nothing is transactional. */
const NO_OPS = new Set(['ACK', 'NACK', 'BEGIN', 'COMMIT', 'ABORT']);

/**
 * One STOMP connection. Authentication already happened on the upgrade request, so CONNECT
 * carries no credentials; the session negotiates version and heart-beats, tracks
 * subscriptions, and turns hub messages into MESSAGE frames. Any protocol error gets an ERROR
 * frame and a close, never an exception out of here.
 */
const NO_HEADS: readonly FrameHead[] = [];

/** A message a session holds until its burst is written: its frames for each head, numbered from `first`. */
interface HeldMessage {
  readonly frames: MessageFrames;
  readonly heads: readonly FrameHead[];
  readonly first: number;
}

export class StompSession implements HeldFrames, HubSubscriber<TransientXmlMessage> {
  /** Whose channels the session sees (the hub reads it per message). */
  readonly user: User;
  /** Resolves once the socket is closed and everything of this session is released. */
  readonly closed: Promise<void>;
  /** The close code of the closing handshake, once closed (1006: cut without one). */
  closeCode = 1006;
  private state: State = 'awaiting-connect';
  private version: StompVersion = '1.0';
  private readonly parser: StompParser;
  private readonly subscriptions: StompSubscriptions;
  private leaveHub: (() => void) | undefined;
  /** MESSAGE frame heads of the delivering subscriptions; rebuilt after SUBSCRIBE / UNSUBSCRIBE. */
  private heads: FrameHead[] | undefined;
  /**
   * The head's parts when exactly one subscription delivers (nearly every session): a delivery
   * then reads them from the session itself rather than from the heads array and its head (at a
   * fan-out to a thousand sessions, each further object read is a cache miss).
   */
  private soleBytes: Buffer | undefined;
  private soleDestination = '';
  private readonly heartBeats: HeartBeatTimers;
  private connectDeadline: TimerHandle | undefined;
  private sent = 0;
  /**
   * MESSAGE frames handed over in this turn, written together when it ends (flushHeld): the
   * first message's in the held* fields, any later one's in `more`.
   */
  private heldFrames: MessageFrames | undefined;
  private heldHeads: readonly FrameHead[] = NO_HEADS;
  private heldFirst = 0;
  /** The first held message's head when it came under a sole head (heldHeads is then empty). */
  private heldSoleBytes: Buffer | undefined;
  private heldSoleDestination = '';
  private more: HeldMessage[] | undefined;
  /**
   * What a delivery needs, held by the session itself: at a fan-out to a thousand sessions each
   * further object a delivery reads (the context, the sender) is a cache miss of its own.
   */
  private readonly socket: FrameSocket | undefined;
  private readonly bursts: Bursts;
  private readonly frameMemory: FrameMemory;

  constructor(
    private readonly ws: WebSocket,
    private readonly ctx: StompSessionContext,
  ) {
    this.user = ctx.user;
    this.socket = lifelongSocket(ws);
    this.bursts = ctx.bursts;
    this.frameMemory = ctx.frameMemory;
    this.sendLimit = {
      maxBufferedBytes: ctx.options.maxBufferedBytes,
      binary: TEXT_FRAMES,
      onDrop: (buffered) => {
        ctx.logger.warn(
          { session: ctx.id, user: ctx.user.key, buffered },
          'STOMP client is not reading; dropping the connection',
        );
        this.release();
      },
    };
    this.heartBeats = new HeartBeatTimers(ctx.clock);
    this.subscriptions = new StompSubscriptions(ctx.options.destinations, ctx.options.maxSubscriptions);
    this.parser = new StompParser({ onFrame: (frame) => this.onFrame(frame) }, ctx.options.limits);
    this.closed = new Promise((resolve) => {
      ws.on('close', (code: number) => {
        this.closeCode = code;
        this.release();
        resolve();
      });
    });
    ws.on('message', (data) => this.onData(data));
    this.connectDeadline = ctx.clock.setTimeout(() => {
      if (this.state !== 'awaiting-connect') return;
      const ms = ctx.options.connectTimeoutMs;
      this.protocolError('connect timeout', `no CONNECT frame within ${ms} ms of opening the socket`);
    }, ctx.options.connectTimeoutMs);
    ws.on('error', (err) => ctx.logger.debug({ err, session: ctx.id }, 'STOMP socket error'));
  }

  /** Refuses the session before any frame: the ERROR says why, then the socket closes. */
  refuse(message: string, details: string): void {
    this.send({
      command: 'ERROR',
      headers: [
        ['message', message],
        ['content-type', 'text/plain'],
      ],
      body: details,
    });
    this.closeSocket(WS_CLOSE.POLICY_VIOLATION, message);
  }

  /** Closes the session with this code (the control plane), cut after closeGraceMs. */
  close(code: number, reason: string): void {
    this.closeSocket(code, reason);
  }

  /** Server shutdown: a clean close, cut after closeGraceMs if the peer does not answer. */
  shutdown(): void {
    this.closeSocket(WS_CLOSE.GOING_AWAY, 'server shutting down');
  }

  terminate(): void {
    this.release();
    this.ws.terminate();
  }

  private onData(data: RawData): void {
    if (this.state === 'closed') return;
    this.heartBeats.received();
    const chunk = Buffer.isBuffer(data)
      ? data
      : Array.isArray(data)
        ? Buffer.concat(data)
        : Buffer.from(data);
    try {
      this.parser.push(chunk);
    } catch (err) {
      if (err instanceof StompFrameError && err.reason === 'frame-too-large') {
        this.protocolError('frame too large', `${err.message} (STOMP_MAX_FRAME_BYTES)`);
      } else if (err instanceof StompFrameError) {
        this.protocolError('malformed frame', err.message);
      } else {
        this.ctx.logger.error({ err, session: this.ctx.id }, 'STOMP frame handling failed');
        this.protocolError('internal error', 'the server could not handle this frame');
      }
    }
  }

  private onFrame(frame: StompFrame): void {
    if (this.state === 'closed') return;
    if (this.state === 'awaiting-connect') {
      if (frame.command === 'CONNECT' || frame.command === 'STOMP') {
        this.connect(frame);
      } else {
        this.protocolError('not connected', `expected CONNECT or STOMP first, got ${frame.command}`, frame);
      }
      return;
    }
    switch (frame.command) {
      case 'SUBSCRIBE':
        this.subscribe(frame);
        break;
      case 'UNSUBSCRIBE':
        this.unsubscribe(frame);
        break;
      case 'DISCONNECT':
        this.receipt(frame);
        this.closeSocket(WS_CLOSE.NORMAL, 'disconnected');
        return;
      case 'SEND':
        this.protocolError(
          'SEND is not supported',
          'this endpoint only delivers; post data to /customerapi/channel/{channelId}/NonDurable',
          frame,
        );
        return;
      case 'CONNECT':
      case 'STOMP':
        this.protocolError('already connected', 'CONNECT was already received on this connection', frame);
        return;
      default:
        if (!NO_OPS.has(frame.command)) {
          this.protocolError('unknown command', `unknown STOMP command ${frame.command}`, frame);
          return;
        }
    }
    if (this.state === 'connected') this.receipt(frame);
  }

  private connect(frame: StompFrame): void {
    const version = negotiateVersion(frame.headers);
    if (version === undefined) {
      this.protocolError('unsupported version', 'supported STOMP versions are 1.0, 1.1 and 1.2', frame, [
        ['version', '1.0,1.1,1.2'],
      ]);
      return;
    }
    const offer = parseHeartBeat(frame.headers['heart-beat']);
    if (offer === undefined) {
      this.protocolError('invalid heart-beat', 'heart-beat must be "cx,cy" in milliseconds', frame);
      return;
    }
    this.version = version;
    this.parser.version = version;
    this.state = 'connected';
    const server = this.ctx.options.heartBeat;
    // Heart-beating is a 1.1 feature; a 1.0 peer would read a bare EOL as garbage.
    const plan = version === '1.0' ? { sendEvery: 0, expectEvery: 0 } : negotiateHeartBeat(offer, server);
    this.send({
      command: 'CONNECTED',
      headers: [
        ['version', version],
        ['heart-beat', version === '1.0' ? '0,0' : formatHeartBeat(server)],
        ['server', this.ctx.options.serverName],
        ['session', this.ctx.id],
        ['user-name', this.ctx.user.key],
      ],
    });
    this.connectDeadline?.cancel();
    this.heartBeats.start(plan, {
      beat: () => this.write(HEART_BEAT),
      silent: (silence) => {
        this.ctx.logger.info(
          { session: this.ctx.id, silence },
          'STOMP client missed its heart-beats; closing',
        );
        this.closeSocket(WS_CLOSE.POLICY_VIOLATION, 'heart-beat timeout');
      },
    });
    this.ctx.logger.debug({ session: this.ctx.id, version, heartBeat: plan }, 'STOMP session connected');
    this.ctx.connected?.(version, plan);
  }

  private subscribe(frame: StompFrame): void {
    const added = this.subscriptions.add(frame.headers, this.version);
    this.heads = undefined;
    this.soleBytes = undefined;
    if (isProblem(added)) {
      this.protocolError(added.message, added.details, frame);
      return;
    }
    if (!added.delivers) {
      this.ctx.logger.warn(
        { session: this.ctx.id, destination: added.destination, known: this.ctx.options.destinations },
        'STOMP subscription to a destination that never receives messages',
      );
      return;
    }
    this.leaveHub ??= this.ctx.hub.join(this);
  }

  private unsubscribe(frame: StompFrame): void {
    const problem = this.subscriptions.remove(frame.headers, this.version);
    this.heads = undefined;
    this.soleBytes = undefined;
    if (problem) {
      this.protocolError(problem.message, problem.details, frame);
      return;
    }
    if (this.subscriptions.delivering().length === 0) {
      this.leaveHub?.();
      this.leaveHub = undefined;
    }
  }

  /** The hub's message for this session's user: held for the burst (flushHeld writes it). */
  deliver(message: TransientXmlMessage): void {
    if (this.state !== 'connected') return;
    // The JSON body and the frame's shared part are built once per message, not per session.
    const frames = messageFrames(message);
    const heads = this.heads ?? this.prepareHeads();
    const sole = this.soleBytes;
    const first = this.sent + 1;
    this.sent += sole === undefined ? heads.length : 1;
    // Nearly every burst is one message: it is held in fields, with no object or array made per
    // session and message; a second one in the same turn goes to `more`. Whether the client may
    // be handed the bytes is decided once, when the burst is written (flushHeld), which touches
    // the socket once per session and burst rather than once per message and again to write.
    if (this.heldFrames === undefined) {
      this.bursts.hold(this);
      this.heldFrames = frames;
      this.heldFirst = first;
      this.heldSoleBytes = sole;
      if (sole === undefined) this.heldHeads = heads;
      else this.heldSoleDestination = this.soleDestination;
    } else {
      this.more ??= [];
      this.more.push({ frames, heads, first });
    }
  }

  /** The heads of the delivering subscriptions, made after a SUBSCRIBE or UNSUBSCRIBE changed them. */
  private prepareHeads(): FrameHead[] {
    const heads = this.subscriptions
      .delivering()
      .map((subscription) => frameHead(subscription, this.ctx.id, this.version));
    this.heads = heads;
    const only = heads.length === 1 ? heads[0] : undefined;
    this.soleBytes = only?.bytes;
    this.soleDestination = only?.destination ?? '';
    return heads;
  }

  /**
   * Writes the MESSAGE frames of this burst, back to back in one buffer and one write (Bursts).
   * Every other frame this session sends goes out after them (send() and heart-beats flush first).
   * A client whose unread bytes, with all but the last message of the burst, pass the limit is
   * dropped and written nothing: the check a write of each message as it came would have made.
   */
  flushHeld(): void {
    const frames = this.heldFrames;
    if (frames === undefined) return;
    const { heldHeads: heads, heldFirst: first, more } = this;
    const { heldSoleBytes: sole, heldSoleDestination: destination } = this;
    this.heldFrames = undefined;
    this.heldHeads = NO_HEADS;
    this.heldSoleBytes = undefined;
    this.more = undefined;
    if (this.state === 'closed') return;
    let last = sole === undefined ? 0 : frames.frameBytesOf(sole, destination, first);
    for (let k = 0; k < heads.length; k++) last += frames.frameBytes(heads[k] as FrameHead, first + k);
    let bytes = last;
    for (const held of more ?? []) {
      last = 0;
      for (let k = 0; k < held.heads.length; k++)
        last += held.frames.frameBytes(held.heads[k] as FrameHead, held.first + k);
      bytes += last;
    }
    if (!admitBytes(this.ws, bytes - last, this.sendLimit, this.socket)) return;
    const memory = this.frameMemory;
    const buffer = memory.take(bytes);
    let at = sole === undefined ? 0 : frames.writeFrameOf(buffer, 0, sole, destination, first);
    for (let k = 0; k < heads.length; k++)
      at = frames.writeFrame(buffer, at, heads[k] as FrameHead, first + k);
    for (const held of more ?? []) {
      for (let k = 0; k < held.heads.length; k++)
        at = held.frames.writeFrame(buffer, at, held.heads[k] as FrameHead, held.first + k);
    }
    // A queued buffer's memory is still to be read by the socket.
    if (writeAdmitted(this.ws, buffer, this.socket) === 'queued') memory.keep(buffer);
  }

  private receipt(frame: StompFrame): void {
    const id = frame.headers.receipt;
    if (id !== undefined) this.send({ command: 'RECEIPT', headers: [['receipt-id', id]] });
  }

  private protocolError(
    message: string,
    details: string,
    frame?: StompFrame,
    extra: ReadonlyArray<[string, string]> = [],
  ): void {
    const headers: Array<[string, string]> = [['message', message], ...extra];
    const receipt = frame?.headers.receipt;
    if (receipt !== undefined) headers.push(['receipt-id', receipt]);
    headers.push(['content-type', 'text/plain']);
    this.ctx.logger.debug({ session: this.ctx.id, message, details }, 'STOMP protocol error');
    this.send({ command: 'ERROR', headers, body: details });
    // STOMP: the server closes the connection right after an ERROR frame.
    this.closeSocket(WS_CLOSE.PROTOCOL_ERROR, message);
  }

  private send(frame: OutgoingFrame): boolean {
    return this.write(serializeFrame(frame, this.version));
  }

  /** False when the socket is gone or was dropped as a slow consumer. */
  private write(frame: string | FramedText): boolean {
    // Frames after the MESSAGEs this session holds go after them on the wire.
    this.flushHeld();
    return sendBounded(this.ws, frame, this.sendLimit);
  }

  // One per session, not one per frame written.
  private readonly sendLimit: SendLimit;

  private closeSocket(code: number, reason: string): void {
    if (this.state === 'closed') return;
    // What the session was handed before it closes still reaches the client, before the close.
    this.flushHeld();
    this.release();
    if (this.ws.readyState !== WebSocket.OPEN) return;
    closeWithGrace(this.ws, code, reason, this.ctx.options.closeGraceMs);
  }

  /** Stops timers and deliveries; idempotent. */
  private release(): void {
    this.state = 'closed';
    this.connectDeadline?.cancel();
    this.heartBeats.stop();
    this.leaveHub?.();
    this.leaveHub = undefined;
  }
}
