import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Duplex } from 'node:stream';
import { once } from 'node:events';
import WebSocket, { WebSocketServer } from 'ws';
import { rejectUpgrade, UpgradeRouter } from '@racedata/core';

/** An in-memory socket that records what is written to it. */
class FakeSocket extends Duplex {
  readonly written: Buffer[] = [];
  override _read(): void {}
  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (err?: Error | null) => void): void {
    this.written.push(Buffer.from(chunk));
    cb();
  }
  get text(): string {
    return Buffer.concat(this.written).toString('utf8');
  }
}

const fakeRequest = (url: string | undefined) => ({ url, headers: {} }) as IncomingMessage;

interface Refusal {
  status: number;
  headers: IncomingMessage['headers'];
  body: string;
}

/** Opens a ws client that must be refused; resolves with the HTTP answer it got instead. */
function refusedUpgrade(url: string): Promise<Refusal> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.on('open', () => {
      ws.terminate();
      reject(new Error('the upgrade was accepted'));
    });
    ws.on('error', reject);
    ws.on('unexpected-response', (_req, res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
  });
}

async function openClient(url: string): Promise<WebSocket> {
  const ws = new WebSocket(url);
  await once(ws, 'open');
  return ws;
}

describe('UpgradeRouter on a real server', () => {
  let server: Server;
  let base: string;
  let echo: WebSocketServer;
  let shout: WebSocketServer;
  const clients: WebSocket[] = [];
  const seenPaths: string[] = [];

  beforeEach(async () => {
    echo = new WebSocketServer({ noServer: true });
    shout = new WebSocketServer({ noServer: true });
    echo.on('connection', (ws) => ws.on('message', (data) => ws.send(`echo:${String(data)}`)));
    shout.on('connection', (ws) => ws.on('message', (data) => ws.send(String(data).toUpperCase())));
    const router = new UpgradeRouter()
      .add('/api/v1/channels/connect', (req, socket, head) => {
        seenPaths.push(req.url ?? '');
        echo.handleUpgrade(req, socket, head, (ws) => echo.emit('connection', ws, req));
      })
      .add('/shout', (req, socket, head) => {
        seenPaths.push(req.url ?? '');
        shout.handleUpgrade(req, socket, head, (ws) => shout.emit('connection', ws, req));
      });
    server = createServer((_req, res) => res.end('plain http'));
    server.on('upgrade', router.handle);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    base = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
    seenPaths.length = 0;
  });

  afterEach(async () => {
    for (const ws of clients.splice(0)) ws.terminate();
    for (const wss of [echo, shout]) for (const ws of wss.clients) ws.terminate();
    echo.close();
    shout.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const message = async (ws: WebSocket, text: string): Promise<string> => {
    ws.send(text);
    const [data] = await once(ws, 'message');
    return String(data);
  };

  test('routes each path to its own endpoint on one server', async () => {
    const a = await openClient(`${base}/api/v1/channels/connect`);
    const b = await openClient(`${base}/shout`);
    clients.push(a, b);
    expect(await message(a, 'hi')).toBe('echo:hi');
    expect(await message(b, 'hi')).toBe('HI');
    expect(echo.clients.size).toBe(1);
    expect(shout.clients.size).toBe(1);
  });

  test('ignores the query string and one or more trailing slashes', async () => {
    const a = await openClient(`${base}/shout?token=abc`);
    const b = await openClient(`${base}/shout/`);
    const c = await openClient(`${base}/shout//`);
    clients.push(a, b, c);
    expect(await message(b, 'x')).toBe('X');
    expect(seenPaths).toEqual(['/shout?token=abc', '/shout/', '/shout//']);
  });

  test('an unknown path is refused with 404 and a JSON body naming the path; no endpoint sees it', async () => {
    const answer = await refusedUpgrade(`${base}/customerapi/nowhere?x=1`);
    expect(answer.status).toBe(404);
    expect(answer.headers['content-type']).toBe('application/json');
    expect(answer.headers.connection).toBe('close');
    expect(JSON.parse(answer.body)).toEqual({
      status: 'fail',
      message: 'no WebSocket endpoint at /customerapi/nowhere',
    });
    expect(seenPaths).toEqual([]);
    expect(echo.clients.size + shout.clients.size).toBe(0);
  });

  test('paths are matched exactly otherwise (prefix, case and sub-paths are unknown)', async () => {
    for (const path of ['/api/v1/channels', '/API/V1/CHANNELS/CONNECT', '/shout/more', '/']) {
      expect((await refusedUpgrade(`${base}${path}`)).status).toBe(404);
    }
  });

  test('plain HTTP requests on the same server are not affected', async () => {
    const res = await fetch(`http${base.slice(2)}/shout`);
    expect(await res.text()).toBe('plain http');
  });
});

describe('UpgradeRouter.handle (unit)', () => {
  test('passes req, socket and head to the handler of the path', () => {
    const handler = jest.fn();
    const router = new UpgradeRouter().add('/ws', handler);
    const req = fakeRequest('/ws?x=1');
    const socket = new FakeSocket();
    const head = Buffer.from('early bytes');
    router.handle(req, socket, head);
    expect(handler).toHaveBeenCalledWith(req, socket, head);
    expect(socket.written).toEqual([]);
  });

  test('add() returns the router and a later add for the same path replaces the handler', () => {
    const first = jest.fn();
    const second = jest.fn();
    const router = new UpgradeRouter();
    expect(router.add('/ws', first)).toBe(router);
    router.add('/ws', second);
    router.handle(fakeRequest('/ws'), new FakeSocket(), Buffer.alloc(0));
    expect(first).not.toHaveBeenCalled();
    expect(second).toHaveBeenCalledTimes(1);
  });

  test('a request without url is treated as "/"', async () => {
    const root = jest.fn();
    new UpgradeRouter().add('/', root).handle(fakeRequest(undefined), new FakeSocket(), Buffer.alloc(0));
    expect(root).toHaveBeenCalledTimes(1);
  });

  test('refuses an unknown path by writing a 404 and ending the socket', async () => {
    const socket = new FakeSocket();
    new UpgradeRouter().add('/ws', jest.fn()).handle(fakeRequest('/other'), socket, Buffer.alloc(0));
    await once(socket, 'finish');
    expect(socket.text.startsWith('HTTP/1.1 404 Not Found\r\n')).toBe(true);
  });

  test('a socket error is handled (the socket is destroyed, nothing is thrown)', () => {
    const socket = new FakeSocket();
    new UpgradeRouter().add('/ws', jest.fn()).handle(fakeRequest('/ws'), socket, Buffer.alloc(0));
    expect(() => socket.emit('error', new Error('ECONNRESET'))).not.toThrow();
    expect(socket.destroyed).toBe(true);
  });

  // A request line such as `GET http://[::1/ HTTP/1.1` reaches the upgrade listener; new URL()
  // throws on it, and a throw inside the 'upgrade' listener is an uncaught exception that ends
  // the whole simulator process. It must be refused like any other bad upgrade.
  test.each(['http://[::1/', 'http://%zz/', 'http://host:99999/'])(
    'a malformed request target %j is refused with a 4xx, not thrown',
    async (url) => {
      const socket = new FakeSocket();
      const handler = jest.fn();
      const router = new UpgradeRouter().add('/', handler);
      expect(() => router.handle(fakeRequest(url), socket, Buffer.alloc(0))).not.toThrow();
      expect(handler).not.toHaveBeenCalled();
      await once(socket, 'finish');
      expect(socket.text).toMatch(/^HTTP\/1\.1 4\d\d /);
    },
  );
});

describe('rejectUpgrade', () => {
  test('writes a complete HTTP error with a JSON body and ends the socket', async () => {
    const socket = new FakeSocket();
    rejectUpgrade(socket, 401, 'token missing: "Bearer" — expected');
    await once(socket, 'finish');
    const [head, body] = socket.text.split('\r\n\r\n') as [string, string];
    const lines = head.split('\r\n');
    expect(lines[0]).toBe('HTTP/1.1 401 Unauthorized');
    expect(lines).toContain('Connection: close');
    expect(lines).toContain('Content-Type: application/json');
    expect(JSON.parse(body)).toEqual({ status: 'fail', message: 'token missing: "Bearer" — expected' });
    // Content-Length counts bytes, not characters (the dash is 3 bytes in UTF-8).
    expect(lines).toContain(`Content-Length: ${Buffer.byteLength(body)}`);
    expect(Buffer.byteLength(body)).toBeGreaterThan(body.length);
  });

  test('an unknown status code gets a generic reason phrase', async () => {
    const socket = new FakeSocket();
    rejectUpgrade(socket, 599, 'odd');
    await once(socket, 'finish');
    expect(socket.text.startsWith('HTTP/1.1 599 Error\r\n')).toBe(true);
  });
});
