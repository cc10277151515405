import type { IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';
import { AUTH, closeAll, post, startSim, type Running } from './support';

afterEach(closeAll);

const SHORT = { httpHeadersTimeoutMs: 200, httpRequestTimeoutMs: 300 };
const sockets: Socket[] = [];
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.destroy();
});

/** A raw connection; resolves with everything the server sent once it closes the connection. */
function rawClient(run: Running): { socket: Socket; closed: Promise<string> } {
  const socket = connect(Number(new URL(run.base).port), '127.0.0.1');
  sockets.push(socket);
  socket.on('error', () => undefined);
  let received = '';
  socket.setEncoding('latin1');
  socket.on('data', (text: string) => (received += text));
  return { socket, closed: new Promise((resolve) => socket.once('close', () => resolve(received))) };
}

/** Sends a POST head, then its body one byte every 25 ms until the server hangs up. */
function trickle(run: Running, path: string, length = 100): Promise<string> {
  const { socket, closed } = rawClient(run);
  socket.write(`POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Length: ${length}\r\n\r\n`);
  let sent = 0;
  const timer = setInterval(() => {
    if (sent >= length || socket.destroyed) return clearInterval(timer);
    socket.write('x');
    sent += 1;
  }, 25);
  return closed.finally(() => clearInterval(timer));
}

/** Resolves once the server dispatched `count` requests to `path` (claims are made by then). */
function dispatched(run: Running, path: string, count = 1): Promise<void> {
  let seen = 0;
  return new Promise((resolve) => {
    run.sim.server.on('request', (req: IncomingMessage) => {
      if (req.url?.startsWith(path) && ++seen === count) resolve();
    });
  });
}

describe('legacy simulator against slow HTTP clients', () => {
  it('answers a body trickled past HTTP_REQUEST_TIMEOUT_MS with 408 and serves others meanwhile', async () => {
    const run = await startSim(SHORT);
    const cut = trickle(run, '/customerapi/channel/id/NonDurable');
    expect((await fetch(`${run.base}/health`)).status).toBe(200);
    expect(await cut).toMatch(/^HTTP\/1\.1 408/);
  });

  it('never cuts a long poll held longer than HTTP_REQUEST_TIMEOUT_MS', async () => {
    const run = await startSim({ ...SHORT, longPollTimeoutMs: 60_000 });
    const held = dispatched(run, '/customerapi/channels/listen');
    const poll = fetch(`${run.base}/customerapi/channels/listen`, { headers: AUTH });
    await held;
    // Cut later than the poll arrived, so the poll outlived the request deadline.
    expect(await trickle(run, '/customerapi/channel/id/Durable')).toMatch(/^HTTP\/1\.1 408/);
    await post(run.base, '/customerapi/channel/RaceDay/Durable', '<later/>');
    const res = await poll;
    expect(res.status).toBe(200);
    expect(JSON.parse(await res.text())).toBe('<later/>');
  });

  it('answers 503 with Retry-After while MAX_INFLIGHT_BODY_BYTES are being received', async () => {
    const run = await startSim({ maxInflightBodyBytes: 100, maxBodyBytes: 100 });
    const first = rawClient(run);
    const claimed = dispatched(run, '/customerapi/channel/id/NonDurable');
    first.socket.write(
      'POST /customerapi/channel/id/NonDurable HTTP/1.1\r\nHost: x\r\nContent-Length: 60\r\n\r\n<a>',
    );
    await claimed;
    const refused = await post(
      run.base,
      '/customerapi/channel/id/NonDurable',
      '<b>' + 'x'.repeat(50) + '</b>',
    );
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.json()).toEqual({
      status: 'fail',
      message: 'too many request bodies in flight (MAX_INFLIGHT_BODY_BYTES 100); retry shortly',
    });
    first.socket.end(`${'x'.repeat(53)}</a>`);
    expect(await first.closed).toMatch(/^HTTP\/1\.1 200/);
    expect((await post(run.base, '/customerapi/channel/id/NonDurable', '<b/>')).status).toBe(200);
  });
});
