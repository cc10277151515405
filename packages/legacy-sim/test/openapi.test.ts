import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import {
  checkedClient,
  checkedUpgrade,
  describeControlPlane,
  fromFetch,
  openApiProblems,
  OpenApiConformance,
  testCoverage,
  type CheckedCall,
  type DocShape,
} from '@racedata/test-support/api-docs';
import { TOKENS } from '@racedata/test-support';
import { AUTH, RawStomp, closeAll, post, startSim, type Running } from './support';

// Every answer below is held against GET /_sim/openapi.json: its status must be documented for
// the operation, and its headers, content type and body must match what the document says. The
// last test fails on any documented answer no test here produced; nothing is excused.
const ALLOWED: Readonly<Record<string, string>> = {};

const AUTH_PATH = '/customerapi/authenticate/subscription';
const LISTEN_PATH = '/customerapi/channels/listen';
const STOMP_PATHS = ['/customerapi/channels/connect', '/api/v1/channels/connect'];
const basic = (pair: string) => ({ authorization: `Basic ${Buffer.from(pair).toString('base64')}` });
const handshake = () => ({
  upgrade: 'websocket',
  'sec-websocket-version': '13',
  'sec-websocket-key': randomBytes(16).toString('base64'),
});

let api: OpenApiConformance;

beforeAll(async () => {
  const s = await startSim();
  const res = await fetch(`${s.base}/_sim/openapi.json`);
  const text = await res.text();
  api = new OpenApiConformance(JSON.parse(text) as DocShape);
  // The document's own answer is held against the document too.
  api.check('GET', '/_sim/openapi.json', fromFetch(res, text));
  await s.sim.close();
});

afterEach(closeAll);

async function start(
  settings: Parameters<typeof startSim>[0] = {},
): Promise<Running & { call: CheckedCall }> {
  const s = await startSim(settings);
  return { ...s, call: checkedClient(api, s.base) };
}

describe('GET /_sim/openapi.json', () => {
  test('is a valid OpenAPI 3.1 document of the legacy paths, at the project version', () => {
    expect(openApiProblems(api.doc)).toEqual([]);
    const root = JSON.parse(readFileSync(path.resolve(__dirname, '../../../package.json'), 'utf8')) as {
      version: string;
    };
    expect(api.doc.info.version).toBe(root.version);
    expect(Object.keys(api.doc.paths)).toEqual(
      expect.arrayContaining([AUTH_PATH, '/authenticate', LISTEN_PATH, ...STOMP_PATHS]),
    );
    expect(Object.keys(api.doc.paths)).not.toContain('/api/message');
  });

  test('CONTROL_API=off answers both documents 404, like every /_sim/ path', async () => {
    const s = await startSim({ controlApi: 'off' });
    expect((await fetch(`${s.base}/_sim/openapi.json`)).status).toBe(404);
    expect((await fetch(`${s.base}/_sim/asyncapi.json`)).status).toBe(404);
  });
});

describe('production and injection paths answer as documented', () => {
  test.each([AUTH_PATH, `${AUTH_PATH}/`])('POST %s: 200, 400, 401, 415', async (authPath) => {
    const { call } = await start();
    const ok = await call('POST', authPath, { json: { key: 'testuser', secret: 'testpassword' } });
    expect(ok.headers.get('authorization')).toBe(`Bearer ${TOKENS.testuser}`);
    expect((await call('POST', authPath, { json: { key: 'testuser' } })).status).toBe(400);
    expect((await call('POST', authPath)).status).toBe(400);
    const malformed = await call('POST', authPath, {
      body: '{"key":',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    expect((await call('POST', authPath, { json: { key: 'testuser', secret: 'nope' } })).status).toBe(401);
    const latin = await call('POST', authPath, {
      body: '{"key":"testuser","secret":"testpassword"}',
      headers: { 'content-type': 'application/json; charset=iso-8859-1' },
    });
    expect(latin.status).toBe(415);
  });

  test('POST /authenticate: Basic or a JSON body; 400, 401, 415', async () => {
    const { call } = await start();
    expect((await call('POST', '/authenticate', { headers: basic('testuser:testpassword') })).status).toBe(
      200,
    );
    expect(
      (await call('POST', '/authenticate', { json: { key: 'testuser', secret: 'testpassword' } })).status,
    ).toBe(200);
    expect((await call('POST', '/authenticate', { headers: { authorization: 'Bearer abc' } })).status).toBe(
      400,
    );
    expect((await call('POST', '/authenticate')).status).toBe(400);
    expect((await call('POST', '/authenticate', { headers: basic('testuser:nope') })).status).toBe(401);
    const latin = await call('POST', '/authenticate', {
      body: '{"key":"testuser","secret":"testpassword"}',
      headers: { 'content-type': 'application/json; charset=iso-8859-1' },
    });
    expect(latin.status).toBe(415);
  });

  test('GET /customerapi/channels/listen: 200, 204 at the long-poll timeout, 401', async () => {
    const s = await start({ longPollTimeoutMs: 60_000 });
    expect(
      (await s.call('POST', '/customerapi/channel/id/Durable?payloadKey=k1', { body: '<a/>' })).status,
    ).toBe(200);
    expect((await s.call('GET', LISTEN_PATH, { headers: AUTH })).body).toBe('<a/>');
    const held = s.call('GET', LISTEN_PATH, { headers: AUTH });
    await waitForHeldPoll(s.call);
    // The wait runs on the simulator's clock: moving it past the timeout ends the poll now.
    await s.call('POST', '/_sim/clock/advance', { json: { ms: 60_000 } });
    expect((await held).status).toBe(204);
    expect((await s.call('GET', LISTEN_PATH)).status).toBe(401);
    expect((await s.call('GET', LISTEN_PATH, { headers: { authorization: 'Bearer nope' } })).status).toBe(
      401,
    );
  });

  test.each(['HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'])(
    '%s /customerapi/channels/listen is 405',
    async (method) => {
      const { call } = await start();
      expect((await call(method, LISTEN_PATH, { headers: AUTH })).status).toBe(405);
    },
  );

  test.each(['Durable', 'NonDurable'])(
    'POST /customerapi/channel/{channelId}/%s: 200, 400, 415',
    async (kind) => {
      const { call } = await start();
      const inject = (query: string, body: string, contentType = 'application/json') =>
        call('POST', `/customerapi/channel/${query}`, { body, headers: { 'content-type': contentType } });
      expect((await inject(`id/${kind}?payloadKey=k1`, '<race id="1"/>')).status).toBe(200);
      expect((await inject(`TimeToStart/${kind}`, '<t/>', 'text/xml')).status).toBe(200);
      expect((await inject(`Nope/${kind}`, '<a/>')).status).toBe(400);
      expect((await inject(`id/${kind}`, '<a>')).status).toBe(400);
      expect((await inject(`id/${kind}`, '')).status).toBe(400);
      expect((await inject(`id/${kind}`, '<!DOCTYPE a><a/>')).status).toBe(400);
      expect((await inject(`id/${kind}?payloadKey=a&payloadKey=b`, '<a/>')).status).toBe(400);
      expect((await inject(`id/${kind}`, '<a/>', 'text/xml; charset=klingon')).status).toBe(415);
    },
  );

  test.each(STOMP_PATHS)(
    'GET %s: 101 with a token, 400 for a bad handshake, 401 without a token, 404 plain',
    async (stompPath) => {
      const s = await start();
      const upgrade = (headers: Record<string, string>) => checkedUpgrade(api, s.base, stompPath, headers);
      expect(
        await upgrade({ ...handshake(), ...AUTH, 'sec-websocket-protocol': 'v12.stomp, v11.stomp' }),
      ).toBe(101);
      expect(await upgrade({ ...handshake(), ...AUTH, 'sec-websocket-key': 'short' })).toBe(400);
      expect(await upgrade(handshake())).toBe(401);
      expect(await upgrade({ ...handshake(), authorization: 'Bearer nope' })).toBe(401);
      expect((await s.call('GET', stompPath)).status).toBe(404);
    },
  );

  test.each(STOMP_PATHS)('GET %s: 503 while the simulator shuts down', async (stompPath) => {
    // A peer that never answers the close handshake keeps shutdown waiting, here until it goes.
    const s = await startSim({}, { stomp: { closeGraceMs: 60_000 } });
    const stubborn = await openSilentSession(s.base, stompPath);
    const closing = s.sim.close();
    await stubborn.closeFrameReceived;
    expect(await checkedUpgrade(api, s.base, stompPath, { ...handshake(), ...AUTH })).toBe(503);
    stubborn.destroy();
    await closing;
  });
});

describeControlPlane({
  api: () => api,
  start: (settings, deps) => startSim(settings, deps),
  deliverOne: async (base) => {
    await post(base, '/customerapi/channel/id/Durable?payloadKey=k1', '<a/>');
    await (await fetch(`${base}${LISTEN_PATH}`, { headers: AUTH })).text();
  },
  readTransport: 'listen',
  openSession: async (base) => {
    const peer = await RawStomp.connect(`${base.replace('http', 'ws')}${STOMP_PATHS[0]}`);
    return { closed: peer.closed.then((info) => info.code) };
  },
  sessionTransport: 'stomp',
  faultRules: [
    {
      match: { transport: 'listen', user: 'testuser' },
      action: { type: 'status', status: 503, retryAfter: 5 },
    },
    {
      match: { path: '/customerapi/*' },
      action: { type: 'status', status: 500, body: { why: 'test' } },
      times: 2,
    },
    { match: { transport: 'inject' }, action: { type: 'delay', ms: 10 }, forMs: 60_000 },
    { match: { transport: 'authenticate' }, action: { type: 'hold' } },
    { match: { transport: 'stomp' }, action: { type: 'disconnect', reset: true } },
    { match: { transport: 'stomp', channel: 'TimeToStart', user: 'testuser' }, action: { type: 'drop' } },
  ],
});

testCoverage(() => api, ALLOWED);

/** No event says a poll is now held; /_sim/state shows it (a bounded number of looks). */
async function waitForHeldPoll(call: CheckedCall): Promise<void> {
  for (let look = 0; look < 1000; look++) {
    const state = (await call('GET', '/_sim/state')).body as { users: Record<string, { heldPolls: number }> };
    if ((state.users.testuser?.heldPolls ?? 0) > 0) return;
  }
  throw new Error('no poll was held');
}

/**
 * A STOMP WebSocket opened over a bare TCP socket that reads but never answers: the server's
 * close frame arrives and is left unanswered, so close() waits out its grace period.
 */
async function openSilentSession(
  base: string,
  stompPath: string,
): Promise<{ closeFrameReceived: Promise<void>; destroy(): void }> {
  const { hostname, port } = new URL(base);
  const socket = connect(Number(port), hostname);
  const headers = { ...handshake(), ...AUTH, connection: 'Upgrade', host: `${hostname}:${port}` };
  socket.write(
    `GET ${stompPath} HTTP/1.1\r\n${Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}`)
      .join('\r\n')}\r\n\r\n`,
  );
  let received = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      received += chunk.toString('latin1');
      if (!received.includes('\r\n\r\n')) return;
      socket.off('data', onData);
      if (received.startsWith('HTTP/1.1 101')) resolve();
      else reject(new Error(`upgrade refused: ${received.split('\r\n')[0]}`));
    };
    socket.on('data', onData);
    socket.once('error', reject);
  });
  socket.on('error', () => undefined);
  const closeFrameReceived = new Promise<void>((resolve) => socket.once('data', () => resolve()));
  return { closeFrameReceived, destroy: () => socket.destroy() };
}
