import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
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
import {
  AUTH_PATH,
  EVENTS_PATH,
  FILTERED_PATH,
  MESSAGE_PATH,
  STREAM_PATH,
  closeAll,
  connectAuthenticated,
  event,
  get,
  postMessage,
  startSim,
  type Started,
} from './helpers';

// Every answer below is held against GET /_sim/openapi.json: its status must be documented for
// the operation, and its headers, content type and body must match what the document says. The
// last test fails on any documented answer that no test here produced, except these:
const ALLOWED: Readonly<Record<string, string>> = {
  // The ws library answers 503 to an upgrade that reaches the event stream after it closed and
  // before the HTTP server did, inside close(); no request can be timed into that window.
  'GET /customerapi/event-stream 503': 'only while the simulator shuts down',
};

let api: OpenApiConformance;

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const wsKey = () => randomBytes(16).toString('base64');

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
): Promise<Started & { call: CheckedCall }> {
  const s = await startSim(settings);
  return { ...s, call: checkedClient(api, s.base) };
}

describe('GET /_sim/openapi.json', () => {
  test('is a valid OpenAPI 3.1 document of the JSON paths, at the project version', async () => {
    expect(openApiProblems(api.doc)).toEqual([]);
    const root = JSON.parse(readFileSync(path.resolve(__dirname, '../../../package.json'), 'utf8')) as {
      version: string;
    };
    expect(api.doc.info.version).toBe(root.version);
    expect(Object.keys(api.doc.paths)).toEqual(
      expect.arrayContaining([
        AUTH_PATH,
        EVENTS_PATH,
        FILTERED_PATH,
        MESSAGE_PATH,
        STREAM_PATH,
        '/_sim/faults',
      ]),
    );
    expect(Object.keys(api.doc.paths)).not.toContain('/customerapi/channels/listen');
  });

  test('states the limits this instance runs with', async () => {
    const s = await start({ journalMax: 50 });
    const doc = (await s.call('GET', '/_sim/openapi.json')).body as DocShape;
    const limit = doc.paths['/_sim/journal']?.get as { parameters: Array<{ name: string; schema: object }> };
    expect(limit.parameters.find((p) => p.name === 'limit')?.schema).toMatchObject({ maximum: 50 });
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
    expect((await call('POST', authPath, { json: [1] })).status).toBe(400);
    expect(
      (await call('POST', authPath, { body: '{"key":', headers: { 'content-type': 'application/json' } }))
        .status,
    ).toBe(400);
    expect((await call('POST', authPath, { json: { key: 'testuser', secret: 'nope' } })).status).toBe(401);
    const latin = await call('POST', authPath, {
      body: '{"key":"testuser","secret":"testpassword"}',
      headers: { 'content-type': 'application/json; charset=iso-8859-1' },
    });
    expect(latin.status).toBe(415);
  });

  test('GET /customerapi/events: 200, 204 at the long-poll timeout, 400, 401', async () => {
    const s = await start({ longPollTimeoutMs: 60_000 });
    await s.call('POST', MESSAGE_PATH, { json: event('RaceDayTrot', { trackId: 5, raceNr: 1, startNr: 3 }) });
    expect(
      (await s.call('GET', `${EVENTS_PATH}?lastEventId=0`, { headers: bearer(TOKENS.testuser) })).status,
    ).toBe(200);
    expect((await s.call('GET', EVENTS_PATH, { headers: bearer(TOKENS.testuser) })).status).toBe(200);
    const held = s.call('GET', `${EVENTS_PATH}?lastEventId=1`, { headers: bearer(TOKENS.testuser) });
    await waitForHeldPoll(s.call);
    // The wait runs on the simulator's clock: moving it past the timeout ends the poll now.
    await s.call('POST', '/_sim/clock/advance', { json: { ms: 60_000 } });
    expect((await held).status).toBe(204);
    expect((await s.call('GET', `${EVENTS_PATH}?limit=x`, { headers: bearer(TOKENS.testuser) })).status).toBe(
      400,
    );
    expect((await s.call('GET', EVENTS_PATH)).status).toBe(401);
    expect((await s.call('GET', EVENTS_PATH, { headers: bearer('not-a-token') })).status).toBe(401);
  });

  test('GET /customerapi/filtered-events: 200, 204, 400, 401', async () => {
    const { call } = await start();
    await call('POST', MESSAGE_PATH, { json: event('RaceDayTrot') });
    const auth = { headers: bearer(TOKENS.testuser) };
    expect(
      (await call('GET', `${FILTERED_PATH}?channel=RaceDayTrot&startDate=2026-01-01`, auth)).status,
    ).toBe(200);
    expect((await call('GET', `${FILTERED_PATH}?channel=RaceDayGallop`, auth)).status).toBe(204);
    expect((await call('GET', `${FILTERED_PATH}?channel=ResultGallop`, auth)).status).toBe(400);
    expect((await call('GET', `${FILTERED_PATH}?startDate=2026-02-30`, auth)).status).toBe(400);
    expect((await call('GET', FILTERED_PATH)).status).toBe(401);
  });

  test('POST /api/message: 201 durable, 202 transient, 400, 413 for an event over the store budget, 415', async () => {
    const { call } = await start({ eventStoreMaxBytes: 2000 });
    expect(
      (await call('POST', MESSAGE_PATH, { json: { ...event('RaceDayTrot'), trackId: null } })).status,
    ).toBe(201);
    expect((await call('POST', MESSAGE_PATH, { json: event('TimeToStartTrot') })).status).toBe(202);
    expect((await call('POST', MESSAGE_PATH, { json: event('NoSuchChannel') })).status).toBe(400);
    const big = event('RaceDayTrot', { payload: { text: 'x'.repeat(2500) } });
    expect((await call('POST', MESSAGE_PATH, { json: big })).status).toBe(413);
    const latin = await call('POST', MESSAGE_PATH, {
      body: JSON.stringify(event('RaceDayTrot')),
      headers: { 'content-type': 'application/json; charset=latin1' },
    });
    expect(latin.status).toBe(415);
  });

  test('GET /customerapi/event-stream: 101 with the upgrade headers, 400 for a bad handshake, 404 without', async () => {
    const s = await start();
    const handshake = { upgrade: 'websocket', 'sec-websocket-version': '13' };
    expect(
      await checkedUpgrade(api, s.base, STREAM_PATH, { ...handshake, 'sec-websocket-key': wsKey() }),
    ).toBe(101);
    expect(await checkedUpgrade(api, s.base, STREAM_PATH, handshake)).toBe(400);
    expect((await s.call('GET', STREAM_PATH)).status).toBe(404);
  });
});

describeControlPlane({
  api: () => api,
  start: (settings, deps) => startSim(settings, deps),
  deliverOne: async (base) => {
    await postMessage(base, event('RaceDayTrot'));
    await get(base, `${EVENTS_PATH}?lastEventId=0`, TOKENS.testuser);
  },
  readTransport: 'events',
  openSession: async (base) => {
    const client = await connectAuthenticated(`${base.replace('http', 'ws')}${STREAM_PATH}`, TOKENS.testuser);
    return { closed: client.closed.then((info) => info.code) };
  },
  sessionTransport: 'event-stream',
  faultRules: [
    {
      match: { transport: 'events', user: 'testuser' },
      action: { type: 'status', status: 503, retryAfter: 5 },
      times: 1,
    },
    { match: { path: '/customerapi/*' }, action: { type: 'status', status: 500, body: 'down' } },
    { action: { type: 'delay', ms: 10 }, forMs: 60_000 },
    { match: { transport: 'message' }, action: { type: 'hold' } },
    { match: { transport: 'event-stream' }, action: { type: 'disconnect', code: 4001, reset: false } },
    { match: { transport: 'event-stream', channel: 'TimeToStartTrot' }, action: { type: 'drop' } },
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
