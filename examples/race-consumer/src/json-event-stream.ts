import WebSocket from 'ws';
import { authenticate, realWait, type Credentials, type Wait } from './auth';

export interface StreamData {
  readonly channel: string;
  readonly date: string;
  readonly payload: unknown;
  readonly [field: string]: unknown;
}

export interface JsonEventStreamOptions extends Credentials {
  readonly onData: (data: StreamData) => void;
  readonly wait?: Wait;
}

/**
 * The transient channels over /customerapi/event-stream. The interface says that after a
 * disconnect "the client must reconnect and authenticate again; nothing is replayed": so every
 * (re)connection authenticates over HTTP for a fresh token first (the old one may be what got the
 * socket closed), then sends it as the first message.
 */
export class JsonEventStream {
  readonly stats = { connections: 0, closes: [] as number[] };
  private socket: WebSocket | undefined;
  private stopped = false;
  private readonly authenticatedWaiters: Array<() => void> = [];

  constructor(private readonly options: JsonEventStreamOptions) {}

  start(): void {
    void this.connect();
  }

  /** Resolves once the stream is authenticated (again, after a reconnect). */
  authenticated(): Promise<void> {
    return new Promise((resolve) => this.authenticatedWaiters.push(resolve));
  }

  stop(): Promise<void> {
    this.stopped = true;
    const socket = this.socket;
    if (!socket || socket.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise((resolve) => {
      socket.once('close', () => resolve());
      socket.close(1000, 'consumer stopping');
    });
  }

  private async connect(): Promise<void> {
    const { baseUrl, key, secret, onData } = this.options;
    const wait = this.options.wait ?? realWait;
    let token: string;
    try {
      token = await authenticate(baseUrl, key, secret);
    } catch {
      if (!this.stopped) await wait(1000).then(() => this.connect());
      return;
    }
    if (this.stopped) return;
    const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/customerapi/event-stream`);
    this.socket = socket;
    socket.on('error', () => undefined); // the close that follows is what we act on
    socket.on('message', (raw) => {
      const message = JSON.parse(raw.toString()) as { type: string; data?: StreamData };
      if (message.type === 'Connection') socket.send(token);
      else if (message.type === 'Authenticated') {
        this.stats.connections++;
        for (const resolve of this.authenticatedWaiters.splice(0)) resolve();
      } else if (message.type === 'Data' && message.data) onData(message.data);
    });
    socket.on('close', (code) => {
      this.stats.closes.push(code);
      if (this.stopped) return;
      void wait(250).then(() => this.connect());
    });
  }
}
