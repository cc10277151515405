import { Agent, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { once } from 'node:events';
import WebSocket, { WebSocketServer } from 'ws';
import {
  createHttpLifecycle,
  UpgradeRouter,
  type HttpLifecycle,
  type HttpLifecycleOptions,
} from '@racedata/core';

interface Reply {
  status: number;
  body: string;
  headers: IncomingMessage['headers'];
  socket: Socket;
}

function get(port: number, path: string, agent?: Agent): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent: agent ?? false }, (res) => {
      // Captured now: a keep-alive response detaches from its socket once it ends.
      const socket = res.socket as Socket;
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers, socket }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** Fails the test if the promise has not settled in time (a guard against hangs, not a timing assertion). */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const guard = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not settle within ${ms} ms`)), ms);
  });
  return Promise.race([promise, guard]).finally(() => clearTimeout(timer));
}

describe('createHttpLifecycle', () => {
  const opened: HttpLifecycle[] = [];
  const agents: Agent[] = [];
  const held: ServerResponse[] = [];
  let arrived: () => void;
  let arrival: Promise<void>;

  const handler: HttpLifecycleOptions['handler'] = (req, res) => {
    if (req.url === '/hold') {
      held.push(res);
      arrived();
      return;
    }
    res.setHeader('content-type', 'text/plain');
    res.end(`hello ${req.url}`);
  };

  const make = (options: Partial<HttpLifecycleOptions> = {}) => {
    const lc = createHttpLifecycle({ handler, ...options });
    opened.push(lc);
    return lc;
  };

  const keepAlive = () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    agents.push(agent);
    return agent;
  };

  beforeEach(() => {
    arrival = new Promise((resolve) => (arrived = resolve));
  });

  afterEach(async () => {
    for (const agent of agents.splice(0)) agent.destroy();
    for (const res of held.splice(0)) if (!res.writableEnded) res.destroy();
    for (const lc of opened.splice(0)) {
      lc.server.closeAllConnections();
      await lc.close();
    }
  });

  test('listen() defaults to an ephemeral port on 127.0.0.1 and serves the handler', async () => {
    const lc = make();
    const address = await lc.listen();
    expect(address.address).toBe('127.0.0.1');
    expect(address.port).toBeGreaterThan(0);
    expect(lc.server.listening).toBe(true);
    const reply = await get(address.port, '/x');
    expect(reply).toMatchObject({ status: 200, body: 'hello /x' });
  });

  test('listen(port, host) uses them', async () => {
    const lc = make();
    const address = await lc.listen(0, '127.0.0.1');
    expect(address.family).toBe('IPv4');
  });

  test('Node deadlines come from the limits (settings defaults when none are given)', () => {
    const { server } = make();
    expect(server.headersTimeout).toBe(10_000);
    expect(server.requestTimeout).toBe(30_000);
    expect(server.keepAliveTimeout).toBe(5_000);
  });

  test('listen() rejects when the port is taken', async () => {
    const first = make();
    const { port } = await first.listen();
    const second = make();
    await expect(second.listen(port, '127.0.0.1')).rejects.toMatchObject({ code: 'EADDRINUSE' });
    expect(second.server.listening).toBe(false);
  });

  test('close() stops listening: new connections are refused', async () => {
    const lc = make();
    const { port } = await lc.listen();
    await lc.close();
    expect(lc.server.listening).toBe(false);
    await expect(get(port, '/')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  test('close() is idempotent: one beforeClose call, the same promise every time', async () => {
    const beforeClose = jest.fn();
    const lc = make({ beforeClose });
    await lc.listen();
    const first = lc.close();
    const second = lc.close();
    expect(second).toBe(first);
    await first;
    await lc.close();
    expect(beforeClose).toHaveBeenCalledTimes(1);
  });

  test('close() on a server that never listened still runs beforeClose and resolves', async () => {
    const beforeClose = jest.fn();
    await make({ beforeClose }).close();
    expect(beforeClose).toHaveBeenCalledTimes(1);
  });

  test('beforeClose runs while the server is still up and close() waits for its promise', async () => {
    let release!: () => void;
    let listeningDuringBeforeClose: boolean | undefined;
    const lc = make({
      beforeClose: () => {
        listeningDuringBeforeClose = lc.server.listening;
        return new Promise<void>((resolve) => (release = resolve));
      },
    });
    await lc.listen();
    let done = false;
    const closing = lc.close().then(() => (done = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(listeningDuringBeforeClose).toBe(true);
    expect(done).toBe(false);
    expect(lc.server.listening).toBe(true);
    release();
    await closing;
    expect(lc.server.listening).toBe(false);
  });

  test('close() resolves promptly with an idle keep-alive client connected, and closes its socket', async () => {
    // A grace period far beyond the test timeout: close() must not rely on it for idle sockets.
    const lc = make({ graceMs: 60_000 });
    const { port } = await lc.listen();
    const agent = keepAlive();
    const reply = await get(port, '/a', agent);
    expect(reply.status).toBe(200);
    expect(reply.socket.destroyed).toBe(false);
    const socketClosed = once(reply.socket, 'close');
    await lc.close();
    await socketClosed;
    expect(reply.socket.destroyed).toBe(true);
  }, 3000);

  test('close() lets beforeClose answer held requests, delivers those answers, and resolves promptly', async () => {
    const lc = make({
      graceMs: 60_000,
      beforeClose: () => {
        for (const res of held) {
          res.statusCode = 204;
          res.end();
        }
      },
    });
    const { port } = await lc.listen();
    const agent = keepAlive();
    const idle = await get(port, '/warm-up', agent);
    expect(idle.status).toBe(200);
    const polls = [get(port, '/hold', agent), get(port, '/hold')];
    await arrival;
    while (held.length < 2) await new Promise((resolve) => setImmediate(resolve));
    await lc.close();
    const answers = await Promise.all(polls);
    expect(answers.map((a) => a.status)).toEqual([204, 204]);
  }, 3000);

  test('a request nobody answers is cut once graceMs has passed, and close() resolves', async () => {
    const lc = make({ graceMs: 20 });
    const { port } = await lc.listen();
    const hanging = get(port, '/hold');
    hanging.catch(() => undefined);
    await arrival;
    await within(lc.close(), 2000, 'close()');
    await expect(hanging).rejects.toThrow(/socket hang up|ECONNRESET/);
  });

  describe('with an upgrade router', () => {
    let wss: WebSocketServer;
    const clients: WebSocket[] = [];

    beforeEach(() => {
      wss = new WebSocketServer({ noServer: true });
      wss.on('connection', (ws) => ws.on('message', (data) => ws.send(String(data))));
    });

    afterEach(() => {
      for (const ws of clients.splice(0)) ws.terminate();
      for (const ws of wss.clients) ws.terminate();
      wss.close();
    });

    const router = () =>
      new UpgradeRouter().add('/ws', (req, socket, head) =>
        wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req)),
      );

    const connect = async (port: number, path = '/ws') => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}${path}`);
      clients.push(ws);
      await once(ws, 'open');
      ws.on('error', () => undefined);
      return ws;
    };

    test('routes upgrades through the router; unknown paths get 404', async () => {
      const lc = make({ upgrades: router() });
      const { port } = await lc.listen();
      const ws = await connect(port);
      ws.send('ping');
      const [data] = await once(ws, 'message');
      expect(String(data)).toBe('ping');

      const refused = new WebSocket(`ws://127.0.0.1:${port}/nope`);
      refused.on('error', () => undefined);
      clients.push(refused);
      const [, res] = (await once(refused, 'unexpected-response')) as [unknown, IncomingMessage];
      expect(res.statusCode).toBe(404);
      res.resume();
    });

    test('without a router, an upgrade request is not answered by a WebSocket', async () => {
      const lc = make();
      const { port } = await lc.listen();
      const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`);
      clients.push(ws);
      ws.on('error', () => undefined);
      const outcome = await Promise.race([
        once(ws, 'open').then(() => 'open'),
        once(ws, 'unexpected-response').then(() => 'refused'),
        once(ws, 'close').then(() => 'closed'),
      ]);
      expect(outcome).not.toBe('open');
      ws.terminate();
    });

    test('close() resolves promptly when beforeClose closes the WebSockets; clients see the close', async () => {
      const lc = make({
        upgrades: router(),
        graceMs: 60_000,
        beforeClose: () => {
          for (const ws of wss.clients) ws.close(1001, 'server shutting down');
        },
      });
      const { port } = await lc.listen();
      const ws = await connect(port);
      const closed = once(ws, 'close');
      await lc.close();
      const [code, reason] = await closed;
      expect(code).toBe(1001);
      expect(String(reason)).toBe('server shutting down');
    }, 3000);

    // An upgraded socket is no longer tracked by closeAllConnections(), so a WebSocket that
    // beforeClose missed (still authenticating, a handler bug) keeps server.close() pending for
    // ever: the process never stops on SIGTERM. graceMs must cut upgraded sockets too.
    test('close() still resolves after graceMs when an upgraded socket was left open', async () => {
      const lc = make({ upgrades: router(), graceMs: 20 });
      const { port } = await lc.listen();
      const ws = await connect(port);
      const clientClosed = once(ws, 'close');
      await within(lc.close(), 1000, 'close() with an open WebSocket');
      await within(clientClosed, 1000, 'the client close');
    });
  });
});
