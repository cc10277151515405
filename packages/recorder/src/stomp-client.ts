import type { Client as StompClient } from '@stomp/stompjs' with { 'resolution-mode': 'import' };
import WebSocket from 'ws';
import { retryAfterMs } from './backoff';
import { keepSessionOpen } from './session-loop';
import type { TransportContext } from './transport-context';
import { parseTrackSignal } from './upstream-messages';

// @stomp/stompjs is an ES module whose "require" export is a UMD bundle; this package compiles to CommonJS.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { Client } = require('@stomp/stompjs') as { Client: typeof StompClient };

/** The production endpoint and destination (decisions: the legacy STOMP endpoint); the simulator serves both. */
export const STOMP_PATH = '/customerapi/channels/connect';
export const STOMP_DESTINATION = '/customerapi/channels/user/topic/publish';
const HEART_BEAT_MS = 10_000;

interface Ended {
  readonly subscribed: boolean;
  readonly retryAfter?: number | undefined;
}

/**
 * The legacy track-signal subscription: STOMP over WebSocket with the token on the upgrade
 * request (the CONNECT frame carries none), one subscription per connection, each MESSAGE written
 * as a transient line. After a drop it connects again with back-off; a refused upgrade (401)
 * hands the token back so the next attempt authenticates anew.
 */
export class StompRecorderClient {
  private client: StompClient | undefined;

  constructor(private readonly ctx: TransportContext) {}

  run(): Promise<void> {
    return keepSessionOpen(this.ctx, {
      transport: 'stomp',
      closedMessage: 'STOMP session closed; reconnecting',
      session: async () => {
        const ended = await this.session();
        return { gotGoing: ended.subscribed, retryAfter: ended.retryAfter };
      },
      stop: () => void this.client?.deactivate(),
    });
  }

  private async session(): Promise<Ended> {
    const { session, sink, clock, logger } = this.ctx;
    const token = await session.token();
    const url = `${session.base.replace(/^http/, 'ws')}${STOMP_PATH}`;
    let subscribed = false;
    let retryAfter: number | undefined;
    let closed!: () => void;
    const ended = new Promise<void>((resolve) => (closed = resolve));
    const client = new Client({
      reconnectDelay: 0,
      heartbeatIncoming: HEART_BEAT_MS,
      heartbeatOutgoing: HEART_BEAT_MS,
      webSocketFactory: () => {
        const ws = new WebSocket(url, ['v12.stomp', 'v11.stomp', 'v10.stomp'], {
          headers: { authorization: `Bearer ${token}` },
          maxPayload: this.ctx.maxMessageBytes,
        });
        ws.on('unexpected-response', (_req, res) => {
          retryAfter = retryAfterMs(res.headers['retry-after'] as string | undefined, clock.now());
          if (res.statusCode === 401) {
            this.ctx.stats.reauthentications++;
            session.refused(token);
          }
          logger.warn({ transport: 'stomp', status: res.statusCode }, 'STOMP upgrade refused');
          res.resume();
          ws.terminate();
        });
        ws.on('error', (err) =>
          logger.debug({ transport: 'stomp', reason: err.message }, 'STOMP socket error'),
        );
        return ws;
      },
      onConnect: () => {
        const receipt = `subscribed-${this.ctx.stats.connects + 1}`;
        client.watchForReceipt(receipt, () => {
          subscribed = true;
          this.ctx.stats.connects++;
          logger.info({ transport: 'stomp' }, 'STOMP subscribed');
        });
        client.subscribe(
          STOMP_DESTINATION,
          (message) => {
            const signal = parseTrackSignal(message.body);
            if (!signal.ok) {
              sink.malformed('stomp', signal.reason);
              return;
            }
            const { channel, payloadKey, xml } = signal.value;
            sink.legacy('stomp', { at: sink.arrival(), delivery: 'transient', channel, payloadKey, xml });
          },
          { receipt },
        );
      },
      onStompError: (frame) =>
        logger.warn({ transport: 'stomp', reason: frame.headers.message }, 'STOMP error frame'),
      onWebSocketClose: () => closed(),
    });
    this.client = client;
    if (this.ctx.signal.aborted) return { subscribed };
    client.activate();
    await ended;
    await client.deactivate();
    this.client = undefined;
    return { subscribed, retryAfter };
  }
}
