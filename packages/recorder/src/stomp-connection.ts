import {
  DEFAULT_PARSER_LIMITS,
  HEART_BEAT,
  serializeFrame,
  StompFrameError,
  StompParser,
  type OutgoingFrame,
  type StompFrame,
  type StompVersion,
  type TimerHandle,
} from '@racedata/core';
import WebSocket, { type RawData } from 'ws';
import { retryAfterMs } from './backoff';
import type { TransportContext } from './transport-context';
import { parseTrackSignal } from './upstream-messages';
import { rawText, upgradeRefused } from './ws-common';

/** The production endpoint and destination (decisions: the legacy STOMP endpoint); the simulator serves both. */
export const STOMP_PATH = '/customerapi/channels/connect';
export const STOMP_DESTINATION = '/customerapi/channels/user/topic/publish';
/** Heart-beats offered both ways (STOMP 1.1 "Heart-beating"). */
const HEART_BEAT_MS = 10_000;
/** After DISCONNECT, how long the RECEIPT may take before the socket is closed without it. */
export const DISCONNECT_GRACE_MS = 1000;
/** After a close frame, how long the peer's may take before the socket is cut. */
export const CLOSE_GRACE_MS = 1000;
const SUBSCRIBED_RECEIPT = 'subscribed';
const DISCONNECT_RECEIPT = 'bye';

/** How one session ended: whether it got as far as its subscription, and what the server asked us to wait. */
export interface StompEnded {
  readonly subscribed: boolean;
  readonly retryAfter?: number | undefined;
}

/**
 * One STOMP-over-WebSocket session of the recorder (the legacy track-signal subscription): the
 * token on the upgrade request (the CONNECT frame carries none), CONNECT, one SUBSCRIBE with a
 * receipt, each MESSAGE written as a transient line, DISCONNECT with a receipt on stop.
 *
 * Frames are read by core's bounded parser, the legacy simulator's own, with its limits on
 * header count and header line length and the recorder's on frame size, so one frame costs a
 * bounded amount of memory and time; a frame past a limit, or bytes that are no frame, end the
 * session (logged once per cause per interval) and the loop reconnects with back-off. Every wait
 * has a deadline: CONNECTED and the subscription's RECEIPT within the request deadline, the
 * heart-beats the server promised, DISCONNECT's RECEIPT within 1 s, the close handshake within
 * 1 s; past one the socket is cut.
 */
export class StompConnection {
  private readonly ws: WebSocket;
  private readonly parser: StompParser;
  private version: StompVersion = '1.0';
  private subscribed = false;
  private retryAfter: number | undefined;
  private readonly timers = new Set<TimerHandle>();
  private lastHeard: number;
  /** Resolves once the socket is closed. */
  readonly ended: Promise<StompEnded>;

  constructor(
    private readonly ctx: TransportContext,
    token: string,
  ) {
    const { session, clock } = ctx;
    this.lastHeard = clock.now();
    this.parser = new StompParser(
      { onFrame: (frame) => this.onFrame(frame), onHeartBeat: () => undefined },
      { ...DEFAULT_PARSER_LIMITS, maxFrameBytes: ctx.maxMessageBytes },
    );
    const url = `${session.base.replace(/^http/, 'ws')}${STOMP_PATH}`;
    this.ws = new WebSocket(url, ['v12.stomp', 'v11.stomp', 'v10.stomp'], {
      headers: { authorization: `Bearer ${token}` },
      maxPayload: ctx.maxMessageBytes,
      handshakeTimeout: ctx.requestTimeoutMs,
      followRedirects: false,
    });
    this.ended = new Promise((resolve) =>
      this.ws.once('close', () => {
        for (const timer of this.timers) timer.cancel();
        resolve({ subscribed: this.subscribed, retryAfter: this.retryAfter });
      }),
    );
    this.ws.on('unexpected-response', (_req, res) => {
      this.retryAfter = retryAfterMs(res.headers['retry-after'] as string | undefined, clock.now());
      if (res.statusCode === 401) {
        ctx.stats.reauthentications++;
        session.refused(token);
      }
      upgradeRefused(ctx, 'stomp', res, url);
      this.ws.terminate();
    });
    this.ws.on('error', (err) =>
      ctx.causes.warn(
        `stomp: socket ${err.message}`,
        { transport: 'stomp', reason: err.message },
        'STOMP socket error',
      ),
    );
    this.ws.on('open', () => this.send({ command: 'CONNECT', headers: this.connectHeaders(url) }));
    this.ws.on('message', (data: RawData) => this.onData(data));
    this.after(ctx.requestTimeoutMs, () => {
      if (!this.subscribed) this.cut(`no CONNECTED and RECEIPT within ${ctx.requestTimeoutMs} ms`);
    });
  }

  /** Ends the session politely (DISCONNECT, then the close handshake), cutting it where the peer stalls. */
  stop(): void {
    if (this.ws.readyState === WebSocket.OPEN && this.subscribed) {
      this.send({ command: 'DISCONNECT', headers: [['receipt', DISCONNECT_RECEIPT]] });
      this.after(DISCONNECT_GRACE_MS, () => this.close());
    } else {
      this.close();
    }
  }

  /** Cuts the socket at once. */
  terminate(): void {
    this.ws.terminate();
  }

  private close(): void {
    if (this.ws.readyState === WebSocket.CONNECTING) {
      this.ws.terminate();
      return;
    }
    this.ws.close(1000, 'recorder stopping');
    this.after(CLOSE_GRACE_MS, () => this.ws.terminate());
  }

  private connectHeaders(url: string): ReadonlyArray<readonly [string, string]> {
    return [
      ['accept-version', '1.0,1.1,1.2'],
      ['host', new URL(url).hostname],
      ['heart-beat', `${HEART_BEAT_MS},${HEART_BEAT_MS}`],
    ];
  }

  private onData(data: RawData): void {
    this.lastHeard = this.ctx.clock.now();
    const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as Buffer);
    try {
      this.parser.push(bytes);
    } catch (err) {
      if (!(err instanceof StompFrameError)) throw err;
      this.cut(`STOMP frame refused: ${err.message}`);
    }
  }

  private onFrame(frame: StompFrame): void {
    const { ctx } = this;
    switch (frame.command) {
      case 'CONNECTED':
        this.connected(frame);
        return;
      case 'RECEIPT':
        if (frame.headers['receipt-id'] === SUBSCRIBED_RECEIPT && !this.subscribed) {
          this.subscribed = true;
          ctx.stats.connects++;
          ctx.logger.info({ transport: 'stomp' }, 'STOMP subscribed');
        } else if (frame.headers['receipt-id'] === DISCONNECT_RECEIPT) {
          this.close();
        }
        return;
      case 'MESSAGE':
        this.message(frame.body);
        return;
      case 'ERROR':
        ctx.causes.warn(
          `stomp: ERROR ${frame.headers.message ?? ''}`.slice(0, 200),
          { transport: 'stomp', reason: (frame.headers.message ?? '').slice(0, 200) },
          'STOMP error frame',
        );
        this.close();
        return;
      default:
        ctx.causes.warn(
          'stomp: unexpected frame',
          { transport: 'stomp', command: frame.command.slice(0, 40) },
          'STOMP frame the recorder does not expect; ignored',
        );
    }
  }

  private connected(frame: StompFrame): void {
    const version = frame.headers.version;
    this.version = version === '1.1' || version === '1.2' ? version : '1.0';
    this.parser.version = this.version;
    const [sx, sy] = (frame.headers['heart-beat'] ?? '0,0').split(',').map((n) => Number(n.trim()));
    const serverSends = Number.isFinite(sx) && (sx as number) > 0 ? Math.max(HEART_BEAT_MS, sx as number) : 0;
    const serverWants = Number.isFinite(sy) && (sy as number) > 0 ? Math.max(HEART_BEAT_MS, sy as number) : 0;
    if (serverWants > 0)
      this.every(serverWants, () => this.ws.readyState === WebSocket.OPEN && this.ws.send(HEART_BEAT));
    if (serverSends > 0) {
      // STOMP 1.2 "Heart-beating": silence well past the promised beat means the link is dead.
      this.every(serverSends, () => {
        if (this.ctx.clock.now() - this.lastHeard > 2 * serverSends)
          this.cut('no heart-beat from the server');
      });
    }
    this.send({
      command: 'SUBSCRIBE',
      headers: [
        ['id', 'sub-0'],
        ['destination', STOMP_DESTINATION],
        ['ack', 'auto'],
        ['receipt', SUBSCRIBED_RECEIPT],
      ],
    });
  }

  private message(body: Buffer): void {
    const { sink } = this.ctx;
    const text = rawText(body);
    if (text === undefined) {
      sink.malformed('stomp', 'STOMP message body is not UTF-8');
      return;
    }
    const signal = parseTrackSignal(text);
    if (!signal.ok) {
      sink.malformed('stomp', signal.reason);
      return;
    }
    const { channel, payloadKey, xml } = signal.value;
    sink.legacy('stomp', { at: sink.arrival(), delivery: 'transient', channel, payloadKey, xml });
  }

  /** An upstream fault that ends the session: logged once per cause per interval, the socket cut. */
  private cut(reason: string): void {
    this.ctx.causes.warn(
      `stomp: ${reason}`,
      { transport: 'stomp', reason },
      'STOMP session ended by the recorder',
    );
    this.ws.terminate();
  }

  private send(frame: OutgoingFrame): void {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(serializeFrame(frame, this.version));
  }

  private after(ms: number, fn: () => void): void {
    const timer = this.ctx.clock.setTimeout(() => {
      this.timers.delete(timer);
      fn();
    }, ms);
    this.timers.add(timer);
  }

  private every(ms: number, fn: () => void): void {
    this.timers.add(this.ctx.clock.setInterval(fn, ms));
  }
}
