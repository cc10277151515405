/**
 * A small server that pretends to be both simulators (authenticate, events, listen, the event
 * stream and STOMP on one port) and misbehaves the way a broken upstream or proxy does, one mode
 * per misbehaviour, so the recorder can be run against it as users run it (its own process) and
 * held to bounds: no secret written, no request sent elsewhere, no hot loop, no hang.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { closeAfterTest } from '@racedata/test-support';
import { serveStomp, type StompMode, type StompSeen } from './hostile-stomp';

export type { StompMode } from './hostile-stomp';

export type LongPollMode =
  | 'polite'
  /** 302 (events) or 307 (listen) to the other origin. */
  | 'redirect'
  /** 200 with a body that is no page (events) or no XML string (listen). */
  | 'malformed'
  /** The request is never answered. */
  | 'never-answer'
  /** 200 at once, then one byte of the body a second. */
  | 'trickle';

export type EventsMode =
  | LongPollMode
  /** hasMore: true with the same event again, whatever lastEventId says. */
  | 'stuck-cursor'
  /** Each page's eventIds are lower than the last one's. */
  | 'backwards';

export type ListenMode = LongPollMode | 'doctype';

export interface HostileOptions {
  readonly auth?: 'polite' | 'redirect';
  readonly events?: EventsMode;
  readonly listen?: ListenMode;
  readonly stomp?: StompMode;
  /** WebSocket upgrades (event stream, STOMP) answered 307 to the other origin. */
  readonly upgrades?: 'polite' | 'redirect';
  /** What the polite parts hand out, in order. */
  readonly data?: {
    readonly events?: ReadonlyArray<Record<string, unknown>>;
    readonly listen?: readonly string[];
    readonly stream?: ReadonlyArray<Record<string, unknown>>;
    readonly stomp?: readonly string[];
  };
  /** How long a polite long poll with nothing to give is held before 204. */
  readonly holdMs?: number;
  /** The token authenticate issues. */
  readonly token?: string;
  /** Path (below the other origin) the redirects point to: may carry a secret to see it is not logged. */
  readonly redirectPath?: string;
}

export interface SeenRequest {
  readonly at: number;
  readonly method: string;
  readonly path: string;
}

export interface HostileUpstream {
  /** http://127.0.0.1:<port>: both --json-url and --legacy-url. */
  readonly base: string;
  /** Every HTTP request (upgrades apart), in order. */
  readonly requests: SeenRequest[];
  readonly upgrades: SeenRequest[];
  readonly stomp: StompSeen;
  /** The other origin the redirects point to, and what reached it (must stay empty). */
  readonly other: { readonly base: string; readonly requests: SeenRequest[] };
  readonly token: string;
  /** Requests to `path` at or after `since` (ms since the epoch). */
  count(path: string, since?: number): number;
}

const DEFAULT_TOKEN = 'HostileT0ken-6f1c9e2a7b';

/** Starts the upstream (and the other origin) on free loopback ports, closed by closeAll(). */
export async function startHostileUpstream(options: HostileOptions = {}): Promise<HostileUpstream> {
  const other = await listening((req, res, seen) => {
    seen.push(mark(req));
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"success"}');
  });
  const token = options.token ?? DEFAULT_TOKEN;
  const stomp: StompSeen = { connects: 0, subscribes: 0, disconnects: 0 };
  const upgrades: SeenRequest[] = [];
  const holdMs = options.holdMs ?? 1000;
  const data = options.data ?? {};
  const listenQueue = [...(data.listen ?? [])];
  if (options.listen === 'doctype') {
    listenQueue.unshift('<!DOCTYPE Race [<!ENTITY horse "Anna">]><Race name="&horse;"/>');
  }
  let backwards = 1000;
  const redirect = (res: ServerResponse, status: number) =>
    res.writeHead(status, { location: `${other.base}${options.redirectPath ?? '/elsewhere'}` }).end();
  const hold = (res: ServerResponse) => {
    const timer = setTimeout(() => res.writeHead(204).end(), holdMs);
    res.once('close', () => clearTimeout(timer));
  };
  const longPoll = (mode: EventsMode | ListenMode, res: ServerResponse, redirectStatus: number): boolean => {
    if (mode === 'redirect') redirect(res, redirectStatus);
    else if (mode === 'malformed') json(res, 200, 'not a page {');
    else if (mode === 'never-answer') return true;
    else if (mode === 'trickle') trickle(res);
    else return false;
    return true;
  };
  const upstream = await listening((req, res, seen) => {
    seen.push(mark(req));
    const url = new URL(req.url ?? '/', 'http://x');
    const path = url.pathname.replace(/\/$/, '');
    if (req.method === 'POST' && path === '/customerapi/authenticate/subscription') {
      req.resume();
      if (options.auth === 'redirect') redirect(res, 307);
      else
        res
          .writeHead(200, { authorization: `Bearer ${token}`, 'content-type': 'application/json' })
          .end('{"status":"success"}');
      return;
    }
    if (path === '/customerapi/events') {
      const mode = options.events ?? 'polite';
      if (longPoll(mode, res, 302)) return;
      const after = Number(url.searchParams.get('lastEventId') ?? '0');
      if (mode === 'stuck-cursor') return json(res, 200, page([event(1, {})], true));
      if (mode === 'backwards') {
        backwards -= 1;
        return json(res, 200, page([event(backwards, {})], false));
      }
      const all = data.events ?? [];
      const next = all.slice(after, after + 100).map((payload, i) => event(after + i + 1, payload));
      if (next.length === 0) return hold(res);
      return json(res, 200, page(next, after + next.length < all.length));
    }
    if (path === '/customerapi/channels/listen') {
      const mode = options.listen ?? 'polite';
      if (longPoll(mode, res, 307)) return;
      const xml = listenQueue.shift();
      if (xml === undefined) return hold(res);
      return json(res, 200, JSON.stringify(xml));
    }
    res.writeHead(404).end();
  });
  const wss = new WebSocketServer({ noServer: true });
  upstream.server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    upgrades.push(mark(req));
    if (options.upgrades === 'redirect') {
      const location = `${other.base}${options.redirectPath ?? '/elsewhere'}`;
      socket.end(`HTTP/1.1 307 Temporary Redirect\r\nLocation: ${location}\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    const path = (req.url ?? '').split('?')[0];
    wss.handleUpgrade(req, socket, head, (ws: WebSocket) => {
      if (path === '/customerapi/channels/connect')
        serveStomp(ws, options.stomp ?? 'polite', stomp, data.stomp ?? []);
      else if (path === '/customerapi/event-stream') serveStream(ws, data.stream ?? []);
      else ws.close(4004);
    });
  });
  closeAfterTest({
    close: () => {
      for (const client of wss.clients) client.terminate();
      wss.close();
    },
  });
  return {
    base: upstream.base,
    requests: upstream.seen,
    upgrades,
    stomp,
    other: { base: other.base, requests: other.seen },
    token,
    count: (path, since = 0) => upstream.seen.filter((r) => r.path === path && r.at >= since).length,
  };
}

function serveStream(ws: WebSocket, messages: ReadonlyArray<Record<string, unknown>>): void {
  ws.once('message', () => {
    ws.send(JSON.stringify({ type: 'Authenticated', message: 'ok' }));
    for (const data of messages) ws.send(JSON.stringify({ type: 'Data', data }));
  });
}

function event(eventId: number, payload: Record<string, unknown>): Record<string, unknown> {
  return {
    eventId,
    channel: 'RaceDayTrot',
    date: '2026-05-11',
    trackId: 5,
    created_at: new Date().toISOString(),
    payload,
  };
}

function page(events: ReadonlyArray<Record<string, unknown>>, hasMore: boolean): string {
  return JSON.stringify({ status: 'success', data: { numberOfEvents: events.length, hasMore, events } });
}

function json(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(body);
}

/** A 200 whose body comes one byte a second and never ends. */
function trickle(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000000' });
  res.write('"');
  const timer = setInterval(() => res.write('a'), 1000);
  res.once('close', () => clearInterval(timer));
}

function mark(req: IncomingMessage): SeenRequest {
  return {
    at: Date.now(),
    method: req.method ?? '',
    path: (req.url ?? '').split('?')[0]!.replace(/\/$/, ''),
  };
}

interface Listening {
  readonly server: ReturnType<typeof createServer>;
  readonly base: string;
  readonly seen: SeenRequest[];
}

async function listening(
  handle: (req: IncomingMessage, res: ServerResponse, seen: SeenRequest[]) => void,
): Promise<Listening> {
  const seen: SeenRequest[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => handle(req, res, seen));
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closeAfterTest({
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  });
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}
