import type { Client as StompJsClient, IMessage } from '@stomp/stompjs' with { 'resolution-mode': 'import' };
import { type SimulatorSettings, type StompFrame, StompParser } from '@racedata/core';
import type { Simulator } from '@racedata/control';
import { closeAfterTest, createProbed as probed, TOKENS } from '@racedata/test-support';
import WebSocket from 'ws';
import { createLegacySimulator, type LegacySimulatorDeps, type LegacySimulatorProbe } from '../src';

export { closeAll, waitFor } from '@racedata/test-support';

export const AUTH = { authorization: `Bearer ${TOKENS.testuser}` };

export interface Running {
  sim: Simulator;
  /** In-process access (publish, queues, STOMP fan-out) through the factory's test-only probe. */
  probe: LegacySimulatorProbe;
  base: string;
  ws(path?: string): string;
}

/** Starts a simulator on an ephemeral port; closeAll() in afterEach stops it. */
export async function startSim(
  settings: Partial<SimulatorSettings> = {},
  deps: LegacySimulatorDeps = {},
): Promise<Running> {
  const { sim, probe } = createProbed({ longPollTimeoutMs: 2000, ...settings }, deps);
  const { port } = await sim.listen(0, '127.0.0.1');
  return {
    sim,
    probe,
    base: `http://127.0.0.1:${port}`,
    ws: (path = '/customerapi/channels/connect') => `ws://127.0.0.1:${port}${path}`,
  };
}

/** A simulator (not listening, closed by closeAll()) and its test-only probe. */
export function createProbed(
  settings: Partial<SimulatorSettings> = {},
  deps: LegacySimulatorDeps = {},
): { sim: Simulator; probe: LegacySimulatorProbe } {
  return probed(createLegacySimulator, settings, deps);
}

export function post(
  base: string,
  path: string,
  body: string,
  contentType = 'application/json',
): Promise<Response> {
  return fetch(base + path, { method: 'POST', headers: { 'content-type': contentType }, body });
}

export interface Closed {
  code: number;
  reason: string;
}

/** A bare WebSocket STOMP peer that sends exactly what the test says and records every frame. */
export class RawStomp {
  readonly ws: WebSocket;
  readonly opened: Promise<void>;
  readonly closed: Promise<Closed>;
  heartBeats = 0;
  private readonly frames: StompFrame[] = [];
  private waiters: Array<(frame: StompFrame) => void> = [];

  constructor(url: string, headers: Record<string, string> = AUTH, protocols?: string[]) {
    this.ws = new WebSocket(url, protocols, { headers });
    const parser = new StompParser({
      onFrame: (frame) => {
        const waiter = this.waiters.shift();
        if (waiter) waiter(frame);
        else this.frames.push(frame);
      },
      onHeartBeat: () => {
        this.heartBeats += 1;
      },
    });
    parser.version = '1.2';
    this.ws.on('message', (data: Buffer) => parser.push(data));
    this.opened = new Promise((resolve, reject) => {
      this.ws.once('open', () => resolve());
      this.ws.once('error', reject);
    });
    this.closed = new Promise((resolve) => {
      this.ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() }));
    });
  }

  static async connect(
    url: string,
    connectHeaders = 'accept-version:1.2\nheart-beat:0,0',
  ): Promise<RawStomp> {
    const peer = new RawStomp(url);
    await peer.opened;
    peer.send(`CONNECT\n${connectHeaders}\n\n\0`);
    const frame = await peer.next();
    if (frame.command !== 'CONNECTED') throw new Error(`expected CONNECTED, got ${frame.command}`);
    return peer;
  }

  send(text: string | Buffer): void {
    this.ws.send(text);
  }

  next(): Promise<StompFrame> {
    const queued = this.frames.shift();
    if (queued) return Promise.resolve(queued);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Frames received and not yet taken by next(). */
  pending(): readonly StompFrame[] {
    return this.frames;
  }

  close(): void {
    this.ws.close();
  }
}

/** A control-plane request (`/_sim/<path>`); a body is sent as JSON. */
export function control(base: string, method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${base}/_sim/${path}`, {
    method,
    ...(body !== undefined && {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
  });
}

/** The same, answered JSON; fails the test when the status is not the one expected. */
export async function controlJson<T = Record<string, unknown>>(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  status = method === 'POST' && path === 'faults' ? 201 : 200,
): Promise<T> {
  const res = await control(base, method, path, body);
  const text = await res.text();
  if (res.status !== status) throw new Error(`${method} /_sim/${path}: ${res.status} ${text}`);
  return JSON.parse(text) as T;
}

/** A long poll as a client makes it. */
export function listen(
  base: string,
  token: string = TOKENS.testuser,
  init: RequestInit = {},
): Promise<Response> {
  return fetch(`${base}/customerapi/channels/listen`, {
    ...init,
    headers: { authorization: `Bearer ${token}` },
  });
}

/** POST /customerapi/authenticate/subscription as a client does; the token of the answer. */
export async function authenticate(base: string, key: string, secret: string): Promise<string> {
  const res = await post(base, '/customerapi/authenticate/subscription', JSON.stringify({ key, secret }));
  if (res.status !== 200) throw new Error(`authenticate ${key}: ${res.status} ${await res.text()}`);
  const header = res.headers.get('authorization') ?? '';
  const token = /^Bearer (\S+)$/.exec(header)?.[1];
  if (token === undefined) throw new Error(`authenticate ${key}: no bearer token in "${header}"`);
  return token;
}

/**
 * Resolves once the async condition holds, asking again after each answer; for control-plane
 * state with no journal entry of its own (a fault rule's `fired` count). Bounded like waitFor.
 */
export async function until(
  condition: () => Promise<boolean>,
  what = 'condition',
  timeoutMs = 5000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
  }
}

/** Values pushed by callbacks, taken in order by awaiting next(). */
export class Inbox<T> {
  private readonly items: T[] = [];
  private readonly waiters: Array<(item: T) => void> = [];

  push(item: T): void {
    const waiter = this.waiters.shift();
    if (waiter) waiter(item);
    else this.items.push(item);
  }

  next(): Promise<T> {
    if (this.items.length > 0) return Promise.resolve(this.items.shift() as T);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Items pushed and not yet taken. */
  get pending(): readonly T[] {
    return this.items;
  }
}

// @stomp/stompjs is an ES module whose "require" export is a UMD bundle; this file compiles to CommonJS.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { Client } = require('@stomp/stompjs') as { Client: typeof StompJsClient };

/** The destination customers subscribe to for transient messages. */
export const PUBLISH = '/customerapi/channels/user/topic/publish';

export interface StompUserOptions {
  /** Reconnect after the socket closes, as a customer's client does (off: stays closed). */
  reconnect?: boolean;
  /** Runs before every connect, reconnects included (a client re-authenticating): the token to send. */
  token?: () => Promise<string>;
}

/**
 * A customer's STOMP client: @stomp/stompjs over ws with the token on the upgrade request. It
 * subscribes to PUBLISH on every connect and records messages, subscriptions (confirmed by a
 * RECEIPT) and close codes in order. Deactivated by closeAll().
 */
export class StompUser {
  readonly client: StompJsClient;
  readonly messages = new Inbox<IMessage>();
  /** One entry per subscription the server confirmed, i.e. per completed connect. */
  readonly subscribed = new Inbox<string>();
  readonly closes = new Inbox<number>();
  private token: string;
  private receipts = 0;

  constructor(url: string, token: string, options: StompUserOptions = {}) {
    this.token = token;
    this.client = new Client({
      webSocketFactory: () => new WebSocket(url, { headers: { authorization: `Bearer ${this.token}` } }),
      // No heart-beats: a test that advances the simulator's clock must not trip a watchdog.
      heartbeatIncoming: 0,
      heartbeatOutgoing: 0,
      reconnectDelay: options.reconnect ? 1 : 0,
      beforeConnect: async () => {
        if (options.token) this.token = await options.token();
      },
      debug: () => undefined,
    });
    this.client.onConnect = () => {
      const receipt = `sub-${++this.receipts}`;
      this.client.watchForReceipt(receipt, () => this.subscribed.push(receipt));
      this.client.subscribe(PUBLISH, (message) => this.messages.push(message), { receipt });
    };
    this.client.onWebSocketClose = (event: { code: number }) => this.closes.push(event.code);
    closeAfterTest({ close: () => this.client.deactivate() });
  }

  /** Connects, subscribes, and resolves once the server confirmed the subscription. */
  static async connect(url: string, token: string, options: StompUserOptions = {}): Promise<StompUser> {
    const user = new StompUser(url, token, options);
    user.client.activate();
    await user.subscribed.next();
    return user;
  }

  /** The next message's body as the legacy simulator sends it. */
  async nextMessage(): Promise<{ channel: string; payloadKey: string | null; payload: string }> {
    return JSON.parse((await this.messages.next()).body) as {
      channel: string;
      payloadKey: string | null;
      payload: string;
    };
  }
}

export interface Refusal {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A WebSocket upgrade the server must refuse: its HTTP status, headers and body. */
export function upgradeRefusal(url: string, headers: Record<string, string>): Promise<Refusal> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.on('unexpected-response', (_req, res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        });
        ws.terminate();
      });
    });
    ws.on('open', () => {
      ws.terminate();
      reject(new Error('upgrade unexpectedly accepted'));
    });
    ws.on('error', () => undefined);
  });
}
