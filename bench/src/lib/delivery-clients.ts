import type http from 'node:http';
import type WebSocket from 'ws';
import type { ChildServer } from './child-server';
import { sleep, type HttpResult } from './http-client';
import { AUTH, TOKEN, jsonDurableMessage, jsonTransientMessage, legacyMessage } from './payloads';
import { PollClients } from './poll-clients';
import { postBare, postJson, postLegacy } from './posts';
import { closeAll, connectBare, connectEventStream, connectMany, connectStomp } from './ws-clients';

/**
 * The clients every delivery measure drives (latency, fan-out, control-plane cost), each set
 * with the post that reaches every one of them. A delivery is stamped on arrival, before any
 * parsing; `n` is how many messages it carries (a page of events may carry several).
 */
export type OnDelivery = (client: number, n: number, at: number, body: Buffer) => void;

export interface Clients {
  readonly name: string;
  readonly count: number;
  post(seq: number): Promise<HttpResult>;
  /** Connects every client (or starts every poll); `onLost` hears of a client that failed. */
  connect(onDelivery: OnDelivery, onLost: (why: string) => void): Promise<void>;
  /** Resolves once every client waits for the next message (long polls: all held by the server). */
  ready(): Promise<void>;
  close(): void;
}

interface WsOptions {
  readonly name: string;
  readonly count: number;
  open(i: number): Promise<WebSocket>;
  post(seq: number): Promise<HttpResult>;
  /** Frames that carry a delivery (STOMP: MESSAGE). */
  isDelivery?(data: Buffer): boolean;
}

function wsClients(options: WsOptions): Clients {
  let sockets: WebSocket[] = [];
  const { isDelivery } = options;
  return {
    name: options.name,
    count: options.count,
    post: options.post,
    async connect(onDelivery, onLost) {
      sockets = await connectMany(options.count, options.open);
      sockets.forEach((ws, i) => {
        // Kept to a time stamp and a check of one byte: the harness receives every delivery of both sides.
        ws.on('message', (data: Buffer) => {
          const at = performance.now();
          if (!isDelivery || isDelivery(data)) onDelivery(i, 1, at, data);
        });
        ws.on('close', () => onLost(`${options.name}: a client was disconnected`));
      });
    },
    ready: () => Promise.resolve(),
    close: () => closeAll(sockets),
  };
}

interface PollOptions {
  readonly name: string;
  readonly server: ChildServer;
  readonly count: number;
  readonly headers?: (i: number) => http.OutgoingHttpHeaders;
  readonly initialPath: string;
  /** Messages in a 200 answer, and the next poll's path after it. */
  read(body: Buffer, client: number): { messages: number; next: string };
  post(seq: number): Promise<HttpResult>;
}

/**
 * Long-poll clients, each re-polling as soon as an answer arrives. Before a message the harness
 * waits until the server holds every poll (it asks the server process how many it holds), so
 * each message is measured from the same state.
 */
function pollClients(options: PollOptions): Clients {
  let clients: PollClients | undefined;
  return {
    name: options.name,
    count: options.count,
    post: options.post,
    connect(onDelivery, onLost) {
      const next: string[] = [];
      clients = new PollClients({
        port: options.server.port,
        count: options.count,
        ...(options.headers && { headers: options.headers }),
        initialPath: options.initialPath,
        nextPath: (_body, current, i) => next[i] ?? current,
        onResponse: (status, body, at, i) => {
          if (status !== 200) return onLost(`${options.name}: a poll was answered ${status}`);
          const read = options.read(body, i);
          next[i] = read.next;
          onDelivery(i, read.messages, at, body);
        },
      });
      clients.start();
      return Promise.resolve();
    },
    async ready() {
      const deadline = Date.now() + 20_000;
      while ((await options.server.call<number>('waiting')) < options.count) {
        if (Date.now() > deadline) throw new Error(`${options.name}: polls were not all held`);
        await sleep(0);
      }
    },
    close: () => clients?.stop(),
  };
}

/** 'M': of the frames a STOMP server sends (CONNECTED, RECEIPT, ERROR, MESSAGE) only MESSAGE. */
const STOMP_MESSAGE = 0x4d;

/** JSON event-stream clients, fed transient POST /api/message. */
export const jsonStream = ({ port }: ChildServer, count: number): Clients =>
  wsClients({
    name: 'json event-stream',
    count,
    open: () => connectEventStream(port, TOKEN),
    post: (seq) => postJson(port, jsonTransientMessage(seq)),
  });

/** Legacy STOMP subscribers, fed NonDurable posts to channel `id`. */
export const stompSubscribers = ({ port }: ChildServer, count: number): Clients =>
  wsClients({
    name: 'legacy STOMP',
    count,
    open: () => connectStomp(port, TOKEN),
    // One byte, not a decoded string: the harness checks every one of 100,000 deliveries a second.
    isDelivery: (data) => data[0] === STOMP_MESSAGE,
    post: (seq) => postLegacy(port, 'NonDurable', legacyMessage(seq)),
  });

/** A bare baseline's WebSocket clients, posted `body` (the bytes our clients receive). */
export const bareWs = ({ name, port }: ChildServer, count: number, body: Buffer): Clients =>
  wsClients({ name: `${name} (ws)`, count, open: () => connectBare(port), post: () => postBare(port, body) });

/** The bare forwarder's held GET /poll, posted `body`. */
export const barePolls = (server: ChildServer, count: number, body: Buffer): Clients =>
  pollClients({
    name: `${server.name} (long poll)`,
    server,
    count,
    initialPath: '/poll',
    read: () => ({ messages: 1, next: '/poll' }),
    post: () => postBare(server.port, body),
  });

interface Page {
  readonly data: { readonly events: ReadonlyArray<{ readonly eventId: number }> };
}

/**
 * Held GET /customerapi/events?lastEventId=<id>, each client re-polling from the last eventId it
 * got, fed durable POST /api/message; `from` is the store's last eventId when they start.
 */
export function jsonEventPolls(server: ChildServer, count: number, from = 0): Clients {
  const lastIds = new Float64Array(count).fill(from);
  const path = (id: number) => `/customerapi/events?lastEventId=${id}`;
  return pollClients({
    name: 'json /events polls',
    server,
    count,
    headers: () => AUTH,
    initialPath: path(from),
    read: (body, i) => {
      const events = (JSON.parse(body.toString('utf8')) as Page).data.events;
      lastIds[i] = events.at(-1)?.eventId ?? (lastIds[i] as number);
      return { messages: events.length, next: path(lastIds[i] as number) };
    },
    post: (seq) => postJson(server.port, jsonDurableMessage(seq)),
  });
}

/** Held GET /customerapi/channels/listen, one per user bench-1..N, fed Durable posts to `id`. */
export const legacyListens = (server: ChildServer, count: number): Clients =>
  pollClients({
    name: 'legacy listen',
    server,
    count,
    headers: (i) => ({ authorization: `Bearer bench-token-${i + 1}` }),
    initialPath: '/customerapi/channels/listen',
    read: () => ({ messages: 1, next: '/customerapi/channels/listen' }),
    post: (seq) => postLegacy(server.port, 'Durable', legacyMessage(seq)),
  });
