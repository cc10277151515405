import http from 'node:http';
import net from 'node:net';
import { UserTable } from '@racedata/core';
import { TOKENS } from '@racedata/test-support';
import { legacyChannelCatalog } from '../src/description';
import { AUTH, closeAll, post, startSim, waitFor, type Running } from './support';
import { stormLegacyListen } from './listen-storm';

afterEach(closeAll);

const LISTEN = '/customerapi/channels/listen';

const listen = (base: string, headers: Record<string, string> = {}, method = 'GET') =>
  fetch(`${base}${LISTEN}`, { method, headers: { ...AUTH, ...headers } });

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** node:http sends conditional headers as given; fetch adds Cache-Control: no-cache to them. */
function rawListen(base: string, headers: Record<string, string> = {}, method = 'GET'): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${LISTEN}`, { method, headers: { ...AUTH, ...headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Resolves with the server side of the next listen request once its response was written. */
function nextResponseWritten(run: Running): Promise<void> {
  return new Promise((resolve) => {
    run.sim.server.once('request', (_req, res: http.ServerResponse) => res.once('finish', () => resolve()));
  });
}

/** A raw HTTP/1.1 client that sends a listen request and reads nothing back. */
async function deafPoll(run: Running, extraHeaders = ''): Promise<net.Socket> {
  const { port } = run.sim.server.address() as net.AddressInfo;
  const socket = net.connect(port, '127.0.0.1');
  socket.on('error', () => undefined);
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.pause();
  socket.write(
    `GET ${LISTEN} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TOKENS.testuser}\r\n${extraHeaders}\r\n`,
  );
  return socket;
}

describe('listen never consumes a message the client did not get', () => {
  it.each([
    ['If-None-Match: *', { 'if-none-match': '*' }],
    ['If-None-Match with a tag', { 'if-none-match': '"abc", W/"def"' }],
    ['If-Modified-Since in the future', { 'if-modified-since': 'Fri, 01 Jan 2100 00:00:00 GMT' }],
    ['If-Match', { 'if-match': '"nope"' }],
    ['If-Unmodified-Since in the past', { 'if-unmodified-since': 'Thu, 01 Jan 1970 00:00:00 GMT' }],
    ['Range', { range: 'bytes=0-0' }],
    [
      'every conditional header at once',
      { 'if-none-match': '*', 'if-modified-since': 'Fri, 01 Jan 2100 00:00:00 GMT', range: 'bytes=5-' },
    ],
  ])('ignores %s: 200 with the whole document, then the next one', async (_why, headers) => {
    const { base } = await startSim({ longPollTimeoutMs: 50 });
    await post(base, '/customerapi/channel/id/Durable', '<first/>');
    await post(base, '/customerapi/channel/id/Durable', '<second/>');
    const res = await rawListen(base, headers);
    expect(res.status).toBe(200);
    expect(res.headers.etag).toBeUndefined();
    expect(res.headers['last-modified']).toBeUndefined();
    expect(res.headers['cache-control']).toBe('no-store');
    expect(JSON.parse(res.body)).toBe('<first/>');
    const next = await rawListen(base, headers);
    expect(next.status).toBe(200);
    expect(JSON.parse(next.body)).toBe('<second/>');
    expect((await rawListen(base, headers)).status).toBe(204);
  });

  it.each(['HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'])(
    'answers %s with 405 Allow: GET and leaves the message queued',
    async (method) => {
      const { base } = await startSim({ longPollTimeoutMs: 50 });
      await post(base, '/customerapi/channel/id/Durable', '<kept/>');
      const res = await listen(base, {}, method);
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('GET');
      if (method !== 'HEAD')
        expect(await res.json()).toMatchObject({ status: 'fail', code: 'METHOD_NOT_ALLOWED' });
      const next = await listen(base);
      expect(next.status).toBe(200);
      expect(await next.json()).toBe('<kept/>');
    },
  );

  it('puts back a message written to a client that reset the connection without reading it', async () => {
    const run = await startSim({ longPollTimeoutMs: 500 });
    await post(run.base, '/customerapi/channel/id/Durable', '<unread/>');
    const written = nextResponseWritten(run);
    const socket = await deafPoll(run);
    await written;
    const closed = new Promise((resolve) => socket.once('close', resolve));
    socket.resetAndDestroy();
    await closed;
    await waitFor(() => run.probe.queues.totalLeased === 0, 'the lease to settle');
    const next = await listen(run.base);
    expect(next.status).toBe(200);
    expect(await next.json()).toBe('<unread/>');
  });

  // The server's own timers end a connection whose client has not closed it: the keep-alive
  // timeout after an answer, and the linger after a `Connection: close` answer (both 5 s). When
  // the process stalls past them (a loaded machine, a pause in a debugger) with the client's reset
  // already in the kernel, the timer runs first; the reset must still be read before the close.
  it.each([
    ['keep-alive timeout', ''],
    ['linger after Connection: close', 'Connection: close\r\n'],
  ])(
    'puts back a message whose reset arrived while the server stalled past its %s',
    async (_timer, headers) => {
      const run = await startSim({ longPollTimeoutMs: 500 });
      await post(run.base, '/customerapi/channel/id/Durable', '<stalled/>');
      const written = nextResponseWritten(run);
      const socket = await deafPoll(run, headers);
      await written;
      socket.resetAndDestroy();
      // The stall: timers come due while the reset waits unread in the kernel.
      const until = Date.now() + 5_300;
      while (Date.now() < until) {
        // busy: the event loop must not turn
      }
      await waitFor(() => run.probe.queues.totalLeased === 0, 'the lease to settle');
      const next = await listen(run.base);
      expect(next.status).toBe(200);
      expect(await next.json()).toBe('<stalled/>');
    },
    20_000,
  );

  it('does not hand a message to a poll whose client half-closed in the same instant', async () => {
    const run = await startSim({ longPollTimeoutMs: 500 });
    const arrived = new Promise((resolve) => run.sim.server.once('request', resolve));
    const socket = await deafPoll(run);
    await arrived;
    // The FIN reaches the kernel before the server has read it; the message is granted at once.
    socket.end();
    run.probe.publish({ channel: 'id', delivery: 'durable', xml: '<after-fin/>' });
    const next = await listen(run.base);
    expect(next.status).toBe(200);
    expect(await next.json()).toBe('<after-fin/>');
    socket.destroy();
  });

  it('confirms a delivery when the client sends its next request on the same connection', async () => {
    const run = await startSim({ longPollTimeoutMs: 50 });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = () =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        http
          .get(`${run.base}${LISTEN}`, { headers: AUTH, agent }, (res) => {
            let body = '';
            res.setEncoding('utf8');
            res.on('data', (c: string) => (body += c));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          })
          .on('error', reject);
      });
    await post(run.base, '/customerapi/channel/id/Durable', '<once/>');
    const first = await get();
    expect(first).toEqual({ status: 200, body: '"<once/>"' });
    expect(run.probe.queues.totalLeased).toBe(1);
    expect((await get()).status).toBe(204);
    expect(run.probe.queues.totalDepth).toBe(0);
    agent.destroy();
  });
});

// In one process the pollers and the simulator share an event loop, so the storm is kept small
// enough that the server accepts connections as fast as they come: with 50 pollers the accept
// queue stays full of connections already hung up, no poll the server accepts is still alive, and
// the storm proves nothing. The race with clients in another process is listen-process.test.ts'.
describe('hang-up storm', () => {
  async function stormSim(): Promise<Running> {
    const catalog = legacyChannelCatalog();
    const users = UserTable.fromJSON(
      [{ name: 'one', key: 'testuser', secret: 'testpassword', token: TOKENS.testuser, channels: '*' }],
      catalog,
    );
    return startSim({ longPollTimeoutMs: 300 }, { users, catalog });
  }

  it.each([
    ['15 pollers hanging up 0-20 ms after sending', 15, 20, 8],
    ['10 pollers hanging up 0-30 ms after sending', 10, 30, 11],
  ])(
    '%s lose and duplicate nothing',
    async (_why, pollers, maxAbortMs, seed) => {
      const run = await stormSim();
      const result = await stormLegacyListen({
        base: run.base,
        token: TOKENS.testuser,
        messages: 200,
        pollers,
        maxAbortMs,
        seed,
      });
      expect(result).toMatchObject({ lost: 0, duplicates: 0 });
      expect(result.aborted).toBeGreaterThan(0);
      // Hang-ups were tested only if the hanging-up pollers were also handed messages.
      expect(result.rudeReceived).toBeGreaterThan(0);
      expect(run.probe.queues.totalDepth).toBe(0);
    },
    60_000,
  );
});
