import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  checkedClient,
  checkedUpgrade,
  concretePath,
  controlGuarded,
  fromFetch,
  openApiProblems,
  OpenApiConformance,
  operationsWhere,
  sweep,
  takesBody,
  type CheckedCall,
  type DocShape,
} from '@racedata/test-support/api-docs';
import {
  AUTH_PATH,
  DEFAULT_TOKEN,
  EVENTS_PATH,
  FILTERED_PATH,
  MESSAGE_PATH,
  STREAM_PATH,
  closeAll,
  connectAuthenticated,
  event,
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
    expect(ok.headers.get('authorization')).toBe(`Bearer ${DEFAULT_TOKEN}`);
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
      (await s.call('GET', `${EVENTS_PATH}?lastEventId=0`, { headers: bearer(DEFAULT_TOKEN) })).status,
    ).toBe(200);
    expect((await s.call('GET', EVENTS_PATH, { headers: bearer(DEFAULT_TOKEN) })).status).toBe(200);
    const held = s.call('GET', `${EVENTS_PATH}?lastEventId=1`, { headers: bearer(DEFAULT_TOKEN) });
    await waitForHeldPoll(s.call);
    // The wait runs on the simulator's clock: moving it past the timeout ends the poll now.
    await s.call('POST', '/_sim/clock/advance', { json: { ms: 60_000 } });
    expect((await held).status).toBe(204);
    expect((await s.call('GET', `${EVENTS_PATH}?limit=x`, { headers: bearer(DEFAULT_TOKEN) })).status).toBe(
      400,
    );
    expect((await s.call('GET', EVENTS_PATH)).status).toBe(401);
    expect((await s.call('GET', EVENTS_PATH, { headers: bearer('not-a-token') })).status).toBe(401);
  });

  test('GET /customerapi/filtered-events: 200, 204, 400, 401', async () => {
    const { call } = await start();
    await call('POST', MESSAGE_PATH, { json: event('RaceDayTrot') });
    const auth = { headers: bearer(DEFAULT_TOKEN) };
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
    const big = event('RaceDayTrot', { payload: { text: 'x'.repeat(1500) } });
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

describe('the control plane answers as documented', () => {
  test('health, metrics, state, journal and its wait', async () => {
    const { call } = await start();
    await call('GET', '/health');
    await call('GET', '/metrics');
    await call('POST', MESSAGE_PATH, { json: event('RaceDayTrot') });
    await call('GET', `${EVENTS_PATH}?lastEventId=0`, { headers: bearer(DEFAULT_TOKEN) });
    const state = await call('GET', '/_sim/state');
    expect(state.body).toMatchObject({ simulator: 'json', store: { events: 1 } });
    const journal = await call('GET', '/_sim/journal?transport=events&user=testuser&since=0&limit=10');
    expect(journal.body).toMatchObject({ entries: [{ kind: 'delivered', eventId: 1 }] });
    expect((await call('GET', '/_sim/journal?channel=RaceDayTrot')).body).toMatchObject({
      entries: [{ kind: 'received' }, { kind: 'delivered' }],
    });
    expect((await call('GET', '/_sim/journal?limit=0')).status).toBe(400);
    expect((await call('GET', '/_sim/journal/wait?count=2&timeout=60000')).status).toBe(200);
    expect((await call('GET', '/_sim/journal/wait?count=3&timeout=0')).status).toBe(408);
    expect((await call('GET', '/_sim/journal/wait?colour=red')).status).toBe(400);
    await call('GET', '/_sim/asyncapi.json');
  });

  test('clock/advance: 200, 400', async () => {
    const { call } = await start();
    const advanced = await call('POST', '/_sim/clock/advance', { json: { ms: 1000 } });
    expect(advanced.body).toMatchObject({ advancedMs: 1000 });
    expect((await call('POST', '/_sim/clock/advance', { json: { ms: -1 } })).status).toBe(400);
    expect((await call('POST', '/_sim/clock/advance')).status).toBe(400);
  });

  test('reset: 200, 400', async () => {
    const { call } = await start();
    expect((await call('POST', '/_sim/reset', { json: { bogus: true } })).status).toBe(400);
    const malformed = await call('POST', '/_sim/reset', {
      body: '{nope',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    expect((await call('POST', '/_sim/reset')).status).toBe(200);
    const reset = await call('POST', '/_sim/reset', {
      json: { events: true, journal: false, eventIds: 'continue', closeSockets: true },
    });
    expect(reset.body).toMatchObject({ eventIds: 'continue' });
  });

  test('with CONTROL_TOKEN set, every /_sim/ operation and /metrics answer 401 without it', async () => {
    const { base, call } = await start({ controlToken: 'sesame' });
    const failed = await sweep(operationsWhere(api.doc, controlGuarded), async ({ method, template, op }) => {
      const res = await call(method, concretePath(template, { id: 'f1' }), takesBody(op) ? { json: {} } : {});
      expect(res.status).toBe(401);
    });
    expect(failed).toEqual([]);
    expect((await fetch(`${base}/_sim/state`, { headers: bearer('sesame') })).status).toBe(200);
  });

  test('every operation with a body answers 413 to one over MAX_BODY_BYTES', async () => {
    const { call } = await start({ maxBodyBytes: 1024 });
    const oversized = JSON.stringify({ key: 'x'.repeat(2048) });
    const failed = await sweep(operationsWhere(api.doc, takesBody), async ({ method, template }) => {
      const res = await call(method, template, {
        body: oversized,
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status).toBe(413);
    });
    expect(failed).toEqual([]);
  });

  test('every operation with a body answers 503 while too many bodies are in flight', async () => {
    const { call } = await start({ maxInflightBodyBytes: 1 });
    const failed = await sweep(operationsWhere(api.doc, takesBody), async ({ method, template }) => {
      const res = await call(method, template, { json: { any: 'body' } });
      expect(res.status).toBe(503);
    });
    expect(failed).toEqual([]);
  });
});

// The routes below are wired by the fault tooling (packages/core/src/control/fault-params.ts).
describe('fault rules, connection closes and token expiry answer as documented', () => {
  test('POST, GET and DELETE /_sim/faults', async () => {
    const { call } = await start();
    const actions = [
      {
        match: { transport: 'events', user: 'testuser' },
        action: { type: 'status', status: 503, retryAfter: 5 },
        times: 1,
      },
      { match: { path: '/customerapi/*' }, action: { type: 'status', status: 500, body: { why: 'test' } } },
      { action: { type: 'delay', ms: 10 }, forMs: 60_000 },
      { match: { transport: 'message' }, action: { type: 'hold' } },
      { match: { transport: 'event-stream' }, action: { type: 'disconnect', code: 4001, reset: false } },
      { match: { transport: 'event-stream', channel: 'TimeToStartTrot' }, action: { type: 'drop' } },
    ];
    for (const rule of actions) expect((await call('POST', '/_sim/faults', { json: rule })).status).toBe(201);
    expect((await call('POST', '/_sim/faults', { json: { action: { type: 'explode' } } })).status).toBe(400);
    expect(
      (await call('POST', '/_sim/faults', { json: { action: { type: 'drop' }, match: { path: '/x' } } }))
        .status,
    ).toBe(400);
    const listed = (await call('GET', '/_sim/faults')).body as { rules: Array<{ id: string }> };
    expect(listed.rules).toHaveLength(actions.length);
    const first = listed.rules[0]?.id ?? 'f1';
    expect((await call('DELETE', `/_sim/faults/${first}`)).body).toEqual({ removed: 1 });
    expect((await call('DELETE', `/_sim/faults/${first}`)).status).toBe(404);
    expect((await call('DELETE', '/_sim/faults')).body).toEqual({ removed: actions.length - 1 });
  });

  test('POST /_sim/connections/close closes the session with the code and journals it', async () => {
    const s = await start();
    const client = await connectAuthenticated(s.wsUrl, DEFAULT_TOKEN);
    const closed = await s.call('POST', '/_sim/connections/close', {
      json: { transport: 'event-stream', code: 4000 },
    });
    expect(closed.body).toEqual({ closed: 1 });
    expect((await client.closed).code).toBe(4000);
    const page = await s.call('GET', '/_sim/journal/wait?kind=closed&count=1&timeout=5000');
    expect(page.body).toMatchObject({
      entries: [{ kind: 'closed', user: 'testuser', transport: 'event-stream' }],
    });
    expect((await s.call('POST', '/_sim/connections/close', { json: { code: 1005 } })).status).toBe(400);
    expect((await s.call('POST', '/_sim/connections/close')).body).toEqual({ closed: 0 });
  });

  test('POST /_sim/tokens/expire, and reset clears the faults', async () => {
    const { call } = await start({ tokenMode: 'jwt', jwtSecret: 'docs-test' });
    expect((await call('POST', '/_sim/tokens/expire', { json: { user: 'testuser' } })).body).toEqual({
      expired: ['testuser'],
    });
    expect((await call('POST', '/_sim/tokens/expire', { json: { user: 'nobody' } })).status).toBe(400);
    await call('POST', '/_sim/faults', { json: { action: { type: 'hold' }, match: { path: '/nowhere' } } });
    const reset = await call('POST', '/_sim/reset', { json: { faults: true } });
    expect(reset.body).toMatchObject({ cleared: { faultRules: 1, tokenExpiries: 1 } });
  });
});

describe('sandboxes answer as documented', () => {
  test('POST, GET and DELETE /_sim/sandboxes; a sandbox serves the documented paths under its basePath', async () => {
    const s = await start({ sandboxMax: 1 });
    const created = await s.call('POST', '/_sim/sandboxes', {
      json: { replay: false, longPollTimeoutMs: 1000 },
    });
    const box = created.body as {
      id: string;
      basePath: string;
      users: Array<{ key: string; token: string }>;
    };
    expect(created.status).toBe(201);
    expect((await s.call('POST', '/_sim/sandboxes')).status).toBe(429);
    expect((await s.call('POST', '/_sim/sandboxes', { json: { replay: {} } })).status).toBe(400);
    expect((await s.call('GET', '/_sim/sandboxes')).body).toMatchObject({
      max: 1,
      sandboxes: [{ id: box.id }],
    });
    const token = box.users.find((u) => u.key === 'testuser')?.token ?? '';
    expect(
      (await s.call('POST', `${box.basePath}${MESSAGE_PATH}`, { json: event('RaceDayTrot') })).status,
    ).toBe(201);
    expect(
      (await s.call('GET', `${box.basePath}${EVENTS_PATH}?lastEventId=0`, { headers: bearer(token) })).status,
    ).toBe(200);
    // Sandboxes do not nest.
    expect((await s.call('GET', `${box.basePath}/_sim/sandboxes`)).status).toBe(404);
    expect((await s.call('DELETE', `/_sim/sandboxes/${box.id}`)).body).toEqual({ deleted: box.id });
    expect((await s.call('DELETE', `/_sim/sandboxes/${box.id}`)).status).toBe(404);
  });

  test('SANDBOX_MAX=0: the sandbox routes answer 404', async () => {
    const { call } = await start({ sandboxMax: 0 });
    expect((await call('POST', '/_sim/sandboxes')).status).toBe(404);
  });
});

test('every documented answer was produced by a test above (or is allow-listed)', () => {
  expect(api.unexercised(ALLOWED)).toEqual([]);
  expect(api.staleAllowances(ALLOWED)).toEqual([]);
});

/** No event says a poll is now held; /_sim/state shows it (a bounded number of looks). */
async function waitForHeldPoll(call: CheckedCall): Promise<void> {
  for (let look = 0; look < 1000; look++) {
    const state = (await call('GET', '/_sim/state')).body as { users: Record<string, { heldPolls: number }> };
    if ((state.users.testuser?.heldPolls ?? 0) > 0) return;
  }
  throw new Error('no poll was held');
}
