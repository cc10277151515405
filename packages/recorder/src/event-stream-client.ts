import type { TimerHandle } from '@racedata/core';
import WebSocket, { type RawData } from 'ws';
import { retryAfterMs } from './backoff';
import { keepSessionOpen } from './session-loop';
import { CLOSE_GRACE_MS } from './stomp-connection';
import type { TransportContext } from './transport-context';
import { parseStreamFrame } from './upstream-messages';
import { StoppedError } from './upstream-session';
import { rawText, upgradeRefused } from './ws-common';

/** The server pings every minute (interface 3); this long without a frame means the link is dead. */
const SILENCE_LIMIT_MS = 150_000;

interface Ended {
  readonly authenticated: boolean;
  readonly retryAfter?: number | undefined;
}

/**
 * One /customerapi/event-stream session at a time (interface 4.5): the token as the first
 * message, then Data frames written as transient lines. After a close it connects again with
 * back-off, authenticating anew when the token was refused; nothing is replayed on reconnect, so
 * transient messages sent while it is away are not in the recording (the interface's rule).
 * Every wait has a deadline: the handshake and the Authenticated answer within the request
 * deadline, a frame at least every 150 s, the close handshake within 1 s of a stop.
 */
export class EventStreamClient {
  private socket: WebSocket | undefined;

  constructor(private readonly ctx: TransportContext) {}

  run(): Promise<void> {
    return keepSessionOpen(this.ctx, {
      transport: 'stream',
      closedMessage: 'event stream closed; reconnecting',
      session: async () => {
        const ended = await this.session();
        return { gotGoing: ended.authenticated, retryAfter: ended.retryAfter };
      },
      stop: () => this.close(),
    });
  }

  /** Cuts the session in progress at once: the recorder's last resort when a stop takes too long. */
  terminate(): void {
    this.socket?.terminate();
  }

  private close(): void {
    const ws = this.socket;
    if (ws === undefined) return;
    if (ws.readyState === WebSocket.CONNECTING) {
      ws.terminate();
      return;
    }
    ws.close(1000, 'recorder stopping');
    const cut = this.ctx.clock.setTimeout(() => ws.terminate(), CLOSE_GRACE_MS);
    ws.once('close', () => cut.cancel());
  }

  private async session(): Promise<Ended> {
    const { session, sink, clock, logger, causes } = this.ctx;
    const token = await session.token();
    if (this.ctx.signal.aborted) throw new StoppedError();
    const url = `${session.base.replace(/^http/, 'ws')}/customerapi/event-stream`;
    const ws = new WebSocket(url, {
      maxPayload: this.ctx.maxMessageBytes,
      handshakeTimeout: this.ctx.requestTimeoutMs,
      followRedirects: false,
    });
    this.socket = ws;
    let authenticated = false;
    let retryAfter: number | undefined;
    let lastHeard = clock.now();
    const cut = (reason: string) => {
      causes.warn(`stream: ${reason}`, { transport: 'stream', reason }, 'event stream ended by the recorder');
      ws.terminate();
    };
    const timers: TimerHandle[] = [
      clock.setInterval(() => {
        if (clock.now() - lastHeard > SILENCE_LIMIT_MS) cut(`no frame for ${SILENCE_LIMIT_MS} ms`);
      }, SILENCE_LIMIT_MS / 5),
      clock.setTimeout(() => {
        if (!authenticated) cut(`not authenticated within ${this.ctx.requestTimeoutMs} ms`);
      }, this.ctx.requestTimeoutMs),
    ];
    ws.on('unexpected-response', (_req, res) => {
      retryAfter = retryAfterMs(res.headers['retry-after'] as string | undefined, clock.now());
      if (res.statusCode === 401) session.refused(token);
      upgradeRefused(this.ctx, 'stream', res, url);
      ws.terminate();
    });
    ws.on('open', () => ws.send(token));
    ws.on('message', (raw: RawData, isBinary) => {
      lastHeard = clock.now();
      const bytes = Array.isArray(raw) ? Buffer.concat(raw) : Buffer.from(raw as Buffer);
      // ws has checked a text frame's UTF-8 already; a binary one is checked here.
      const text = isBinary ? rawText(bytes) : bytes.toString('utf8');
      if (text === undefined) {
        sink.malformed('stream', 'event-stream message is not UTF-8');
        return;
      }
      const frame = parseStreamFrame(text);
      if (!frame.ok) {
        sink.malformed('stream', frame.reason);
        return;
      }
      const value = frame.value;
      if (value.type === 'Data')
        sink.json('stream', { at: sink.arrival(), delivery: 'transient', message: value.message });
      else if (value.type === 'Authenticated') {
        authenticated = true;
        this.ctx.stats.connects++;
        logger.info({ transport: 'stream' }, 'event stream authenticated');
      } else if (value.type === 'AuthenticationError') {
        this.ctx.stats.reauthentications++;
        session.refused(token);
      }
    });
    ws.on('error', (err) =>
      causes.warn(
        `stream: socket ${err.message}`,
        { transport: 'stream', reason: err.message },
        'event stream error',
      ),
    );
    await new Promise<void>((resolve) => ws.once('close', () => resolve()));
    for (const timer of timers) timer.cancel();
    this.socket = undefined;
    return { authenticated, retryAfter };
  }
}
