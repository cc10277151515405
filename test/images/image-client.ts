/**
 * What the image suites do as a customer would, over the published ports only: timed HTTP, the
 * JSON event stream, and a STOMP session through @stomp/stompjs. Every wait is for an event
 * (an answer, a message, a close) and bounded, so a broken image fails with what was missing.
 */
import type { Client as StompJsClient, IFrame, IMessage } from '@stomp/stompjs' with {
  'resolution-mode': 'import',
};
import WebSocket from 'ws';
import { TOKENS, closeAfterTest } from '@racedata/test-support';

// @stomp/stompjs is an ES module whose "require" export is a UMD bundle; this file compiles to CommonJS.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { Client } = require('@stomp/stompjs') as { Client: typeof StompJsClient };

export const TOKEN = TOKENS.testuser;
export const bearer = (token: string = TOKEN) => ({ authorization: `Bearer ${token}` });
export const today = () => new Date().toISOString().slice(0, 10);

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** Wall time from sending to the whole body read. */
  ms: number;
}

/** One request with a deadline, answered with its status, headers, body and duration. */
export async function call(url: string, init: RequestInit = {}, timeoutMs = 10_000): Promise<Answer> {
  const started = Date.now();
  const res = await fetch(url, { redirect: 'manual', ...init, signal: AbortSignal.timeout(timeoutMs) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, ms: Date.now() - started };
}

/** A POST with a JSON body. */
export function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  return call(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

/** Everything one source delivered, and the first item (past or future) that matches. */
export class Inbox<T> {
  readonly seen: T[] = [];
  private waiters: Array<{ match: (item: T) => boolean; resolve: (item: T) => void }> = [];

  push(item: T): void {
    this.seen.push(item);
    for (const waiter of [...this.waiters]) {
      if (!waiter.match(item)) continue;
      this.waiters.splice(this.waiters.indexOf(waiter), 1);
      waiter.resolve(item);
    }
  }

  next(match: (item: T) => boolean, what: string, timeoutMs = 5_000): Promise<T> {
    const hit = this.seen.find(match);
    if (hit !== undefined) return Promise.resolve(hit);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w.match !== match);
        reject(
          new Error(`no ${what} within ${timeoutMs} ms; got ${JSON.stringify(this.seen).slice(0, 300)}`),
        );
      }, timeoutMs);
      this.waiters.push({
        match,
        resolve: (item) => {
          clearTimeout(timer);
          resolve(item);
        },
      });
    });
  }
}

export interface StreamMessage {
  type: string;
  data?: { channel?: string };
}

/** A JSON event-stream session past its Authenticated message; closed by closeAll(). */
export async function eventStream(baseUrl: string, authMessage = `Bearer ${TOKEN}`) {
  const ws = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/customerapi/event-stream`);
  ws.on('error', () => undefined);
  closeAfterTest({ close: () => ws.terminate() });
  const messages = new Inbox<{ text: string; message: StreamMessage }>();
  const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
  ws.on('message', (data: Buffer) => {
    const text = data.toString('utf8');
    messages.push({ text, message: JSON.parse(text) as StreamMessage });
  });
  await messages.next((m) => m.message.type === 'Connection', 'Connection message');
  ws.send(authMessage);
  await messages.next((m) => m.message.type === 'Authenticated', 'Authenticated message');
  return { ws, messages, closed };
}

/** The destination the smoke subscribes to for transient messages (the vendor's v1 path). */
export const STOMP_DESTINATION = '/api/v1/channels/user/topic/publish';

/**
 * A customer's STOMP session (@stomp/stompjs over ws, testuser's token on the upgrade) subscribed
 * to STOMP_DESTINATION, resolved once the server confirmed the subscription with a RECEIPT.
 */
export async function stompSession(baseUrl: string) {
  const messages = new Inbox<IMessage>();
  const closes = new Inbox<number>();
  const client = new Client({
    webSocketFactory: () =>
      new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/api/v1/channels/connect`, { headers: bearer() }),
    connectHeaders: { host: 'localhost' },
    heartbeatIncoming: 0,
    heartbeatOutgoing: 0,
    reconnectDelay: 0,
    debug: () => undefined,
  });
  closeAfterTest({ close: () => client.deactivate() });
  client.onWebSocketClose = (event: { code: number }) => closes.push(event.code);
  const connected = new Promise<IFrame>((resolve, reject) => {
    client.onConnect = resolve;
    client.onStompError = (frame) => reject(new Error(`STOMP ERROR ${frame.headers.message}`));
    client.onWebSocketError = () => reject(new Error('the STOMP WebSocket failed'));
  });
  client.activate();
  const frame = await connected;
  const subscribed = new Promise<void>((resolve) => client.watchForReceipt('sub-0', () => resolve()));
  client.subscribe(STOMP_DESTINATION, (message) => messages.push(message), { id: 'sub-0', receipt: 'sub-0' });
  await subscribed;
  return { client, version: frame.headers.version, messages, closes };
}
