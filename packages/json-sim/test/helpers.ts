import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import type { EventInput, SimulatorSettings } from '@racedata/core';
import type { Simulator } from '@racedata/control';
import {
  createJsonSimulator,
  type JsonSimulatorDeps,
  type JsonSimulatorProbe,
  type StoredEvent,
} from '@racedata/json-sim';
import { closeAfterTest, createProbed as probed } from '@racedata/test-support';

export { closeAfterTest, closeAll, waitFor } from '@racedata/test-support';

export const AUTH_PATH = '/customerapi/authenticate/subscription';
export const EVENTS_PATH = '/customerapi/events';
export const FILTERED_PATH = '/customerapi/filtered-events';
export const MESSAGE_PATH = '/api/message';
export const STREAM_PATH = '/customerapi/event-stream';

/** Short timeouts so timeouts can be observed without slowing the suite down. */
export const FAST_SETTINGS: Partial<SimulatorSettings> = {
  longPollTimeoutMs: 300,
  wsAuthTimeoutMs: 300,
  wsPingIntervalMs: 100,
};

export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface Started {
  sim: Simulator;
  /** In-process access (publish, store, held polls) through the factory's test-only probe. */
  probe: JsonSimulatorProbe;
  address: AddressInfo;
  /** http://127.0.0.1:<port> */
  base: string;
  /** ws://127.0.0.1:<port>/customerapi/event-stream */
  wsUrl: string;
}

/** Starts a simulator on an ephemeral port; closeAll() (in afterEach) stops it. */
export async function startSim(
  settings: Partial<SimulatorSettings> = {},
  deps: JsonSimulatorDeps = {},
): Promise<Started> {
  const { sim, probe } = createProbed({ ...FAST_SETTINGS, ...settings }, deps);
  const address = await sim.listen(0, '127.0.0.1');
  const base = `http://127.0.0.1:${address.port}`;
  return { sim, probe, address, base, wsUrl: `ws://127.0.0.1:${address.port}${STREAM_PATH}` };
}

/** A simulator (not listening, closed by closeAll()) and its test-only probe. */
export function createProbed(
  settings: Partial<SimulatorSettings> = {},
  deps: JsonSimulatorDeps = {},
): { sim: Simulator; probe: JsonSimulatorProbe } {
  return probed(createJsonSimulator, settings, deps);
}

export interface HttpResult<T = unknown> {
  status: number;
  headers: Headers;
  /** Parsed JSON, or undefined for an empty body. */
  body: T;
  text: string;
}

async function toResult<T>(res: Response): Promise<HttpResult<T>> {
  const text = await res.text();
  let body: unknown = undefined;
  if (text !== '') {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  return { status: res.status, headers: res.headers, body: body as T, text };
}

export interface EventPageBody {
  status: string;
  message?: string;
  data?: { numberOfEvents: number; hasMore: boolean; events: StoredEvent[] };
}

/** GET with an optional bearer token, or a verbatim `authorization` header value. */
export async function get<T = EventPageBody>(
  base: string,
  path: string,
  token?: string,
  init: { signal?: AbortSignal; authorization?: string } = {},
): Promise<HttpResult<T>> {
  const headers: Record<string, string> = {};
  if (init.authorization !== undefined) headers.authorization = init.authorization;
  else if (token !== undefined) headers.authorization = `Bearer ${token}`;
  const res = await fetch(base + path, { headers, ...(init.signal && { signal: init.signal }) });
  return toResult<T>(res);
}

/** POST a raw string body with the given content type (JSON by default). */
export async function postRaw<T = unknown>(
  base: string,
  path: string,
  body: string,
  contentType: string | null = 'application/json',
): Promise<HttpResult<T>> {
  const headers: Record<string, string> = {};
  if (contentType !== null) headers['content-type'] = contentType;
  // A Uint8Array body makes fetch send no content-type of its own.
  const payload = contentType === null ? new TextEncoder().encode(body) : body;
  const res = await fetch(base + path, { method: 'POST', headers, body: payload });
  return toResult<T>(res);
}

export function postJson<T = unknown>(base: string, path: string, value: unknown): Promise<HttpResult<T>> {
  return postRaw<T>(base, path, JSON.stringify(value));
}

export interface MessageResponse {
  status: string;
  message?: string;
  data?: { delivery: 'durable'; event: StoredEvent } | { delivery: 'transient'; recipients: number };
}

/** POST /api/message. */
export function postMessage(base: string, message: unknown): Promise<HttpResult<MessageResponse>> {
  return postJson<MessageResponse>(base, MESSAGE_PATH, message);
}

/** Authenticates and returns the bare token from the `authorization` response header. */
export async function authenticate(base: string, key: string, secret: string): Promise<string> {
  const res = await postJson(base, AUTH_PATH, { key, secret });
  if (res.status !== 200) throw new Error(`authenticate failed: ${res.status} ${res.text}`);
  const header = res.headers.get('authorization') ?? '';
  const match = /^Bearer (\S+)$/.exec(header);
  if (!match?.[1]) throw new Error(`no bearer token in "${header}"`);
  return match[1];
}

/** A durable or transient event input with sensible defaults. */
export function event(channel: string, extra: Partial<EventInput> = {}): EventInput {
  return { channel, date: '2026-01-05', payload: { n: 1 }, ...extra };
}

export interface StreamMessage {
  type: string;
  timestamp: string;
  id: string;
  message?: string;
  data?: {
    channel: string;
    date: string;
    trackId?: number;
    raceNr?: number;
    startNr?: number;
    payload: Record<string, unknown>;
  };
  [key: string]: unknown;
}

export interface CloseInfo {
  code: number;
  reason: string;
}

type Matcher = (message: StreamMessage) => boolean;

interface Waiter {
  matches: Matcher;
  resolve: (message: StreamMessage) => void;
}

/**
 * A WebSocket client that queues every received message so tests can await the next one
 * (of a type) in order, and await the close with its code.
 */
export class WsClient {
  readonly ws: WebSocket;
  /** Every message received, in order (Pings included). */
  readonly received: StreamMessage[] = [];
  readonly closed: Promise<CloseInfo>;
  private readonly queue: StreamMessage[] = [];
  private waiter: Waiter | undefined;
  private closeInfo: CloseInfo | undefined;

  private constructor(url: string) {
    this.ws = new WebSocket(url);
    this.ws.on('error', () => undefined);
    this.ws.on('message', (data, isBinary) => {
      const text = isBinary ? '' : data.toString();
      let parsed: StreamMessage;
      try {
        parsed = JSON.parse(text) as StreamMessage;
      } catch {
        parsed = { type: '<unparseable>', timestamp: '', id: '', raw: text };
      }
      this.received.push(parsed);
      if (!this.waiter) {
        this.queue.push(parsed);
      } else if (this.waiter.matches(parsed)) {
        const { resolve } = this.waiter;
        this.waiter = undefined;
        resolve(parsed);
      }
    });
    this.closed = new Promise((resolve) => {
      this.ws.on('close', (code, reason) => {
        this.closeInfo = { code, reason: reason.toString() };
        resolve(this.closeInfo);
      });
    });
  }

  /** Opens a connection; resolves once the upgrade succeeded. */
  static async connect(url: string): Promise<WsClient> {
    const client = new WsClient(url);
    closeAfterTest({ close: () => client.terminate() });
    await new Promise<void>((resolve, reject) => {
      client.ws.once('open', () => resolve());
      client.ws.once('unexpected-response', (_req, res) =>
        reject(new Error(`upgrade refused with ${res.statusCode}`)),
      );
      client.ws.once('error', reject);
    });
    return client;
  }

  /**
   * The next message matching (by default: the next that is not a Ping). Messages before it that
   * do not match are discarded. Rejects if the socket closes or nothing arrives in time.
   */
  next(match: string | Matcher = (m) => m.type !== 'Ping', timeoutMs = 3000): Promise<StreamMessage> {
    const matches: Matcher = typeof match === 'string' ? (m) => m.type === match : match;
    while (this.queue.length > 0) {
      const message = this.queue.shift() as StreamMessage;
      if (matches(message)) return Promise.resolve(message);
    }
    if (this.closeInfo) {
      return Promise.reject(new Error(`socket already closed (${this.closeInfo.code})`));
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiter = undefined;
        reject(new Error(`no matching message within ${timeoutMs} ms`));
      }, timeoutMs);
      const onClose = (info: CloseInfo) => {
        if (this.waiter?.resolve !== done) return;
        this.waiter = undefined;
        clearTimeout(timer);
        reject(new Error(`socket closed (${info.code}) before a matching message`));
      };
      const done = (message: StreamMessage) => {
        clearTimeout(timer);
        resolve(message);
      };
      this.waiter = { matches, resolve: done };
      void this.closed.then(onClose);
    });
  }

  /** Sends the first message and awaits Authenticated (throws on anything else). */
  async authenticate(first: string): Promise<StreamMessage> {
    this.ws.send(first);
    const reply = await this.next();
    if (reply.type !== 'Authenticated')
      throw new Error(`expected Authenticated, got ${JSON.stringify(reply)}`);
    return reply;
  }

  send(data: string | Buffer): void {
    this.ws.send(data);
  }

  terminate(): void {
    this.ws.terminate();
  }
}

/** Connects, checks the Connection message, and authenticates with a raw token. */
export async function connectAuthenticated(url: string, token: string): Promise<WsClient> {
  const client = await WsClient.connect(url);
  const hello = await client.next();
  if (hello.type !== 'Connection') throw new Error(`expected Connection, got ${JSON.stringify(hello)}`);
  await client.authenticate(token);
  return client;
}
