/**
 * certify's front door on real sockets: what a WebSocket client and an HTTP client see when a
 * session is silenced, a frame changed or added, a page changed, and the server taken away and
 * brought back.
 */
import { request } from 'node:http';
import WebSocket from 'ws';
import { startCertifyServer, type CertifyServer } from '../src/server/certify-server';
import { CERTIFY_TIMINGS } from '../src/timings';

const EVENT_STREAM = '/customerapi/event-stream';
const servers: CertifyServer[] = [];
const sockets: WebSocket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.terminate();
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function server(kind: 'json' | 'legacy' = 'json'): Promise<CertifyServer> {
  const started = await startCertifyServer({
    simulator: kind,
    timings: { ...CERTIFY_TIMINGS, pingIntervalMs: 200 },
  });
  servers.push(started);
  return started;
}

/** An authenticated event-stream session and every message it gets, parsed. */
async function session(
  at: CertifyServer,
): Promise<{ socket: WebSocket; messages: Array<Record<string, unknown>> }> {
  const users = (await (await fetch(`${at.base}/_sim/users`)).json()) as {
    users: Array<{ key: string; token: string }>;
  };
  const token = users.users.find((u) => u.key === at.user.key)?.token ?? '';
  const socket = new WebSocket(`${at.wsBase}${EVENT_STREAM}`);
  sockets.push(socket);
  const messages: Array<Record<string, unknown>> = [];
  await new Promise<void>((resolve, reject) => {
    socket.on('error', reject);
    socket.on('message', (raw: WebSocket.RawData) => {
      const message = JSON.parse(String(raw)) as Record<string, unknown>;
      messages.push(message);
      if (message['type'] === 'Connection') socket.send(token);
      if (message['type'] === 'Authenticated') resolve();
    });
  });
  return { socket, messages };
}

function until<T>(what: string, check: () => T | undefined, timeoutMs = 3_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const poll = () => {
      const value = check();
      if (value !== undefined) return resolve(value);
      if (Date.now() - started > timeoutMs) return reject(new Error(`waited ${timeoutMs} ms for ${what}`));
      setTimeout(poll, 10);
    };
    poll();
  });
}

const post = (at: CertifyServer, body: Record<string, unknown>) =>
  fetch(`${at.base}/api/message`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ date: '2026-05-11', ...body }),
  });

describe('certify front door', () => {
  it('silences a session: no Ping, no data, the socket still open', async () => {
    const at = await server();
    const { socket, messages } = await session(at);
    await until('a Ping', () => messages.find((m) => m['type'] === 'Ping'));
    const [silenced, ...more] = at.frontDoor.silence([EVENT_STREAM]);
    expect(more).toEqual([]);
    expect(silenced).toMatchObject({
      path: EVENT_STREAM,
      lastFrame: expect.stringMatching(/^\{"type":"Ping"/),
    });
    const seen = messages.length;
    await post(at, { channel: 'TimeToStartTrot', payload: { n: 1 } });
    // Five Ping intervals: none of them, nor the Data message, reaches the client.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(messages.length).toBe(seen);
    expect(socket.readyState).toBe(WebSocket.OPEN);
    // The client may still close it, and the simulator hears that.
    const closed = at.traffic.next('session-closed', () => true, { timeoutMs: 3_000 });
    socket.close(1000, 'silent');
    expect(await closed).toMatchObject({ transport: 'event-stream', code: 1000 });
  });

  it('changes the frames a change matches and adds frames of its own, leaving the rest as they were', async () => {
    const at = await server();
    const { messages } = await session(at);
    const undo = at.frontDoor.changeFrames({
      test: (text) => text.includes('"marked"'),
      change: (text) => JSON.stringify({ ...(JSON.parse(text) as object), extra: 'yes' }),
    });
    await post(at, { channel: 'TimeToStartTrot', payload: { marked: true, large: 'x'.repeat(70_000) } });
    await post(at, { channel: 'TimeToStartTrot', payload: { plain: true } });
    expect(at.frontDoor.inject([EVENT_STREAM], '{"type":"RaceStatus","status":"photo-finish"}')).toBe(1);
    const data = await until('three messages', () => {
      const wanted = messages.filter((m) => m['type'] === 'Data' || m['type'] === 'RaceStatus');
      return wanted.length === 3 ? wanted : undefined;
    });
    expect(data.map((m) => [m['type'], m['extra']])).toEqual([
      ['Data', 'yes'],
      ['Data', undefined],
      ['RaceStatus', undefined],
    ]);
    undo();
  });

  it('changes a JSON page it is asked to, with its Content-Length', async () => {
    const at = await server();
    await post(at, { channel: 'RaceDayTrot', payload: { marked: true } });
    const token = await authenticate(at);
    at.frontDoor.changeAnswers({
      path: '/customerapi/events',
      test: () => true,
      change: (body) => ({ ...(body as object), serverTime: 'now' }),
    });
    const res = await fetch(`${at.base}/customerapi/events?lastEventId=0`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const text = await res.text();
    expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
    expect(JSON.parse(text)).toMatchObject({
      status: 'success',
      serverTime: 'now',
      data: { numberOfEvents: 1 },
    });
  });

  it('takes the server away (refused, then closing connections) and back with its state', async () => {
    const at = await server();
    const first = await post(at, { channel: 'RaceDayTrot', payload: { n: 1 } });
    const before = ((await first.json()) as { data: { event: { eventId: number } } }).data.event.eventId;
    const { socket } = await session(at);
    const dropped = new Promise((resolve) => socket.once('close', resolve));
    const stop = new AbortController();
    const away = at.frontDoor.outage({ refusedMs: 500, closingMs: 1_500 }, stop.signal);
    await dropped;
    // Refused while nothing listens; then each connection is taken and closed without an answer.
    const seen = [await connectError(at.port)];
    while (seen[seen.length - 1] === 'ECONNREFUSED') {
      await new Promise((resolve) => setTimeout(resolve, 25));
      seen.push(await connectError(at.port));
    }
    expect(seen[0]).toBe('ECONNREFUSED');
    expect(seen[seen.length - 1]).toMatch(/^(ECONNRESET|socket hang up)$/);
    const outcome = await away;
    expect(outcome.attempts.length).toBeGreaterThanOrEqual(1);
    // Timers fire on whole ms of their own clock: a ms or two early by Date.now().
    expect(outcome.backAt! - outcome.downAt).toBeGreaterThanOrEqual(1_990);
    expect(await connectError(at.port)).toBe('answered 200');
    const again = await post(at, { channel: 'RaceDayTrot', payload: { n: 2 } });
    expect(((await again.json()) as { data: { event: { eventId: number } } }).data.event.eventId).toBe(
      before + 1,
    );
  });

  it('ends an outage early when the run stops, leaving the port for close()', async () => {
    const at = await server();
    const stop = new AbortController();
    const away = at.frontDoor.outage({ refusedMs: 60_000, closingMs: 60_000 }, stop.signal);
    stop.abort();
    expect((await away).backAt).toBeUndefined();
    await at.close();
    expect(await connectError(at.port)).toBe('ECONNREFUSED');
  });
});

describe('GET /_sim/certify/variables', () => {
  it('answers the variables on the host the client reached certify by, as lines or JSON', async () => {
    const at = await server('legacy');
    at.serveVariables({
      RACEDATA_URL: at.base,
      RACEDATA_STOMP_URL: `${at.wsBase}/api/v1/channels/connect`,
      RACEDATA_KEY: 'k',
    });
    const lines = await get(at.port, '/_sim/certify/variables', 'certify:9000');
    expect(lines).toEqual({
      status: 200,
      body: 'RACEDATA_URL=http://certify:9000\nRACEDATA_STOMP_URL=ws://certify:9000/api/v1/channels/connect\nRACEDATA_KEY=k\n',
    });
    const json = await get(at.port, '/_sim/certify/variables?format=json', 'bad host/../x');
    expect(JSON.parse(json.body)).toMatchObject({ RACEDATA_URL: at.base });
    // Not the client's traffic: nothing of it is graded.
    expect(at.traffic.of('request')).toEqual([]);
  });

  it('answers a liveness probe (GET /health) without taking it for the client', async () => {
    const at = await server();
    expect((await get(at.port, '/health', 'localhost')).status).toBe(200);
    expect(at.traffic.of('request')).toEqual([]);
  });

  it('answers 503 until the certification has started', async () => {
    const at = await server();
    expect((await get(at.port, '/_sim/certify/variables', 'localhost')).status).toBe(503);
  });
});

function get(port: number, path: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host }, agent: false }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function authenticate(at: CertifyServer): Promise<string> {
  const res = await fetch(`${at.base}/customerapi/authenticate/subscription`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ key: at.user.key, secret: at.user.secret }),
  });
  return /^Bearer (\S+)$/.exec(res.headers.get('authorization') ?? '')?.[1] ?? '';
}

/** The error a plain HTTP request to the port meets. */
function connectError(port: number): Promise<string> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path: '/health', agent: false }, (res) => {
      res.resume();
      resolve(`answered ${res.statusCode}`);
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
    req.end();
  });
}
