import type { IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';
import { TOKENS } from '@racedata/test-support';
import { EVENTS_PATH, MESSAGE_PATH, closeAll, event, get, postJson, startSim, type Started } from './helpers';

afterEach(closeAll);

const SHORT = { httpHeadersTimeoutMs: 200, httpRequestTimeoutMs: 300 };
const sockets: Socket[] = [];
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.destroy();
});

/** A raw connection; resolves with everything the server sent once it closes the connection. */
function rawClient(s: Started): { socket: Socket; closed: Promise<string> } {
  const socket = connect(s.address.port, '127.0.0.1');
  sockets.push(socket);
  socket.on('error', () => undefined);
  let received = '';
  socket.setEncoding('latin1');
  socket.on('data', (text: string) => (received += text));
  return { socket, closed: new Promise((resolve) => socket.once('close', () => resolve(received))) };
}

/** Sends a POST head, then its body one byte every 25 ms until the server hangs up. */
function trickle(s: Started, length = 100): Promise<string> {
  const { socket, closed } = rawClient(s);
  socket.write(`POST ${MESSAGE_PATH} HTTP/1.1\r\nHost: x\r\nContent-Length: ${length}\r\n\r\n`);
  let sent = 0;
  const timer = setInterval(() => {
    if (sent >= length || socket.destroyed) return clearInterval(timer);
    socket.write(' ');
    sent += 1;
  }, 25);
  return closed.finally(() => clearInterval(timer));
}

/** Resolves once the server dispatched a request to `path` (body claims are made by then). */
function dispatched(s: Started, path: string): Promise<void> {
  return new Promise((resolve) => {
    s.sim.server.on('request', (req: IncomingMessage) => {
      if (req.url?.startsWith(path)) resolve();
    });
  });
}

describe('JSON simulator against slow HTTP clients', () => {
  it('answers a body trickled past HTTP_REQUEST_TIMEOUT_MS with 408 and serves others meanwhile', async () => {
    const s = await startSim(SHORT);
    const cut = trickle(s);
    expect((await fetch(`${s.base}/health`)).status).toBe(200);
    expect(await cut).toMatch(/^HTTP\/1\.1 408/);
  });

  it('never cuts a long poll held longer than HTTP_REQUEST_TIMEOUT_MS', async () => {
    const s = await startSim({ ...SHORT, longPollTimeoutMs: 60_000 });
    const poll = get(s.base, EVENTS_PATH, TOKENS.testuser);
    await new Promise<void>((resolve) => {
      const check = () => (s.probe.polls.size === 1 ? resolve() : setImmediate(check));
      check();
    });
    // Cut later than the poll arrived, so the poll outlived the request deadline.
    expect(await trickle(s)).toMatch(/^HTTP\/1\.1 408/);
    s.probe.publish(event('StartListTrot', { payload: { late: true } }));
    const res = await poll;
    expect(res.status).toBe(200);
    expect(res.body.data?.events[0]?.payload).toEqual({ late: true });
  });

  it('answers 503 with Retry-After while MAX_INFLIGHT_BODY_BYTES are being received', async () => {
    const s = await startSim({ maxInflightBodyBytes: 100, maxBodyBytes: 100 });
    const first = rawClient(s);
    const claimed = dispatched(s, MESSAGE_PATH);
    const body = JSON.stringify({ channel: 'TimeToStartTrot', date: '2026-01-05', payload: { n: 1 } });
    first.socket.write(`POST ${MESSAGE_PATH} HTTP/1.1\r\nHost: x\r\nContent-Length: ${body.length}\r\n\r\n{`);
    await claimed;
    const refused = await postJson(s.base, MESSAGE_PATH, { pad: 'x'.repeat(50) });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.body).toEqual({
      status: 'fail',
      message: 'too many request bodies in flight (MAX_INFLIGHT_BODY_BYTES 100); retry shortly',
    });
    first.socket.end(body.slice(1));
    expect(await first.closed).toMatch(/^HTTP\/1\.1 202/);
    const again = await postJson(s.base, MESSAGE_PATH, {
      channel: 'TimeToStartTrot',
      date: '2026-01-05',
      payload: { n: 1 },
    });
    expect(again.status).toBe(202);
  });
});
