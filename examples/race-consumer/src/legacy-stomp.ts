import type { Client as StompClient } from '@stomp/stompjs' with { 'resolution-mode': 'import' };
import WebSocket from 'ws';
import { authenticate, type Credentials } from './auth';

// @stomp/stompjs is an ES module whose "require" export is a UMD bundle; this file compiles to CommonJS.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { Client } = require('@stomp/stompjs') as { Client: typeof StompClient };

export interface TrackSignal {
  readonly channel: string;
  readonly payloadKey: string | null;
  /** The XML document. */
  readonly payload: string;
  readonly timestamp: string;
}

export interface LegacyStompOptions extends Credentials {
  readonly onSignal: (signal: TrackSignal) => void;
  /** Default: the vendor simulator's spelling, /api/v1/channels/connect. */
  readonly path?: string;
  readonly reconnectDelayMs?: number;
}

/**
 * Transient "track signal" data over STOMP. The token goes in the WebSocket upgrade's
 * authorization header (the CONNECT frame carries none), so a reconnect must authenticate for a
 * fresh token before the upgrade: beforeConnect does that on every attempt.
 */
export class LegacyStomp {
  readonly stats = { connections: 0 };
  private readonly client: StompClient;
  private readonly connectedWaiters: Array<() => void> = [];

  constructor(options: LegacyStompOptions) {
    const { baseUrl, key, secret, onSignal } = options;
    const path = options.path ?? '/api/v1/channels/connect';
    const destination = path.startsWith('/api/v1')
      ? '/api/v1/channels/user/topic/publish'
      : '/customerapi/channels/user/topic/publish';
    let token = '';
    this.client = new Client({
      reconnectDelay: options.reconnectDelayMs ?? 500,
      heartbeatIncoming: 0,
      heartbeatOutgoing: 0,
      beforeConnect: async () => {
        token = await authenticate(baseUrl, key, secret);
      },
      webSocketFactory: () =>
        new WebSocket(`${baseUrl.replace(/^http/, 'ws')}${path}`, ['v12.stomp'], {
          headers: { authorization: `Bearer ${token}` },
        }),
      onConnect: () => {
        this.stats.connections++;
        // Subscribed only once the server says so: a message sent before that is not ours.
        const receipt = `subscribed-${this.stats.connections}`;
        this.client.watchForReceipt(receipt, () => {
          for (const resolve of this.connectedWaiters.splice(0)) resolve();
        });
        this.client.subscribe(destination, (message) => onSignal(JSON.parse(message.body) as TrackSignal), {
          receipt,
        });
      },
    });
  }

  start(): void {
    this.client.activate();
  }

  /** Resolves once subscribed, confirmed by a RECEIPT (again, after a reconnect). */
  connected(): Promise<void> {
    return new Promise((resolve) => this.connectedWaiters.push(resolve));
  }

  stop(): Promise<void> {
    return this.client.deactivate();
  }
}
