import WebSocket from 'ws';
import { retryAfterMs } from './backoff';
import { keepSessionOpen } from './session-loop';
import type { TransportContext } from './transport-context';
import { parseStreamFrame } from './upstream-messages';
import { StoppedError } from './upstream-session';

/** The server pings every minute (interface 3); this long without a frame means the link is dead. */
const SILENCE_LIMIT_MS = 150_000;
const HANDSHAKE_TIMEOUT_MS = 30_000;

interface Ended {
  readonly authenticated: boolean;
  readonly retryAfter?: number | undefined;
}

/**
 * One /customerapi/event-stream session at a time (interface 4.5): the token as the first
 * message, then Data frames written as transient lines. After a close it connects again with
 * back-off, authenticating anew when the token was refused; nothing is replayed on reconnect, so
 * transient messages sent while it is away are not in the recording (the interface's rule).
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
      stop: () => this.socket?.close(1000, 'recorder stopping'),
    });
  }

  private async session(): Promise<Ended> {
    const { session, sink, clock, logger } = this.ctx;
    const token = await session.token();
    if (this.ctx.signal.aborted) throw new StoppedError();
    const url = `${session.base.replace(/^http/, 'ws')}/customerapi/event-stream`;
    const ws = new WebSocket(url, {
      maxPayload: this.ctx.maxMessageBytes,
      handshakeTimeout: HANDSHAKE_TIMEOUT_MS,
    });
    this.socket = ws;
    let authenticated = false;
    let retryAfter: number | undefined;
    let lastHeard = clock.now();
    const watchdog = clock.setInterval(() => {
      if (clock.now() - lastHeard > SILENCE_LIMIT_MS) ws.terminate();
    }, SILENCE_LIMIT_MS / 5);
    ws.on('unexpected-response', (_req, res) => {
      retryAfter = retryAfterMs(res.headers['retry-after'] as string | undefined, clock.now());
      if (res.statusCode === 401) session.refused(token);
      logger.warn({ transport: 'stream', status: res.statusCode }, 'event stream handshake refused');
      res.resume();
      ws.terminate();
    });
    ws.on('open', () => ws.send(token));
    ws.on('message', (raw, isBinary) => {
      lastHeard = clock.now();
      const frame = parseStreamFrame(isBinary ? Buffer.from(raw as Buffer).toString('utf8') : raw.toString());
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
    ws.on('error', (err) => logger.debug({ transport: 'stream', reason: err.message }, 'event stream error'));
    await new Promise<void>((resolve) => ws.once('close', () => resolve()));
    watchdog.cancel();
    this.socket = undefined;
    return { authenticated, retryAfter };
  }
}
