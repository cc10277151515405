/**
 * Fault rules match the route a request takes, not how its path is spelt; a rule that could
 * never fire is refused; and client-chosen WebSocket close codes cannot grow /metrics. All from
 * outside: the simulator runs as its own process.
 */
import WebSocket from 'ws';
import { closeAll, TOKENS } from '@racedata/test-support';
import { startSimProcess, type SimProcess } from '@racedata/test-support/sim-process';

afterEach(closeAll);

const AUTH = { authorization: `Bearer ${TOKENS.testuser}` };

async function addRule(sim: SimProcess, rule: unknown): Promise<Response> {
  return fetch(`${sim.base}/_sim/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(rule),
  });
}

const status503 = { type: 'status', status: 503 };

describe('fault rules match the route, not the spelling', () => {
  test('JSON: any spelling express routes to events meets an events rule; a path it does not route to does not', async () => {
    const sim = await startSimProcess('json', ['--long-poll-timeout', '20']);
    expect((await addRule(sim, { match: { transport: 'events' }, action: status503 })).status).toBe(201);
    expect(
      (await addRule(sim, { match: { path: '/customerapi/filtered-events' }, action: status503 })).status,
    ).toBe(201);
    const statuses: Record<string, number> = {};
    for (const path of [
      '/customerapi/events',
      '/CUSTOMERAPI/EVENTS',
      '/Customerapi/Events/',
      '/customerapi/events//',
      '/customerapi/FILTERED-EVENTS/',
    ]) {
      statuses[path] = (await fetch(`${sim.base}${path}?lastEventId=0`, { headers: AUTH })).status;
    }
    expect(statuses).toEqual({
      '/customerapi/events': 503,
      '/CUSTOMERAPI/EVENTS': 503,
      '/Customerapi/Events/': 503,
      // Not a route (express allows one trailing slash): the simulator's own 404, not the fault.
      '/customerapi/events//': 404,
      '/customerapi/FILTERED-EVENTS/': 503,
    });
  });

  test('legacy: an inject rule stops /customerapi/channel/id/durable too, and nothing is queued', async () => {
    const sim = await startSimProcess('legacy', ['--long-poll-timeout', '20']);
    expect((await addRule(sim, { match: { transport: 'inject' }, action: status503 })).status).toBe(201);
    const spellings = ['/customerapi/channel/id/durable', '/CUSTOMERAPI/CHANNEL/id/DURABLE/'];
    const statuses = [];
    for (const path of spellings) {
      statuses.push((await fetch(`${sim.base}${path}`, { method: 'POST', body: '<a>1</a>' })).status);
    }
    expect(statuses).toEqual([503, 503]);
    expect((await fetch(`${sim.base}/customerapi/channels/listen`, { headers: AUTH })).status).toBe(204);
    // A path rule names the route in whatever case it is written.
    await fetch(`${sim.base}/_sim/faults`, { method: 'DELETE' });
    await addRule(sim, { match: { path: '/customerapi/channels/LISTEN' }, action: status503 });
    expect((await fetch(`${sim.base}/Customerapi/Channels/Listen/`, { headers: AUTH })).status).toBe(503);
  });

  test('a rule that can never fire is refused with 400 saying why', async () => {
    const sim = await startSimProcess('legacy');
    const answers = [];
    for (const match of [
      { transport: 'authenticate', user: 'testuser' },
      { path: '/customerapi/authenticate/subscription', user: 'testuser' },
      { path: '/AUTHENTICATE', user: 'testuser' },
      { transport: 'listen', path: '/customerapi/channel/id/Durable' },
    ]) {
      const res = await addRule(sim, { match, action: status503 });
      answers.push([res.status, ((await res.json()) as { message: string }).message]);
    }
    expect(answers).toEqual([
      [400, expect.stringMatching(/"match.user" cannot match authentication/)],
      [400, expect.stringMatching(/"match.user" cannot match authentication/)],
      [400, expect.stringMatching(/"match.user" cannot match authentication/)],
      [400, expect.stringMatching(/not a path of the "listen" transport/)],
    ]);
    const rules = (await (await fetch(`${sim.base}/_sim/faults`)).json()) as { rules: unknown[] };
    expect(rules.rules).toEqual([]);
    // Authentication can still be faulted, for every user.
    expect((await addRule(sim, { match: { transport: 'authenticate' }, action: status503 })).status).toBe(
      201,
    );
    expect((await fetch(`${sim.base}/authenticate/`, { method: 'POST' })).status).toBe(503);
  });
});

/** An authenticated event-stream session. */
function streamSession(sim: SimProcess): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${sim.wsBase}/customerapi/event-stream`);
    ws.on('message', (data: Buffer) => {
      const type = (JSON.parse(data.toString()) as { type: string }).type;
      if (type === 'Connection') ws.send(AUTH.authorization);
      if (type === 'Authenticated') resolve(ws);
    });
    ws.once('error', reject);
  });
}

test('close codes clients pick share one "other" series; the standard ones and the simulator’s own keep theirs', async () => {
  const sim = await startSimProcess('json');
  const sessions = await Promise.all(Array.from({ length: 42 }, () => streamSession(sim)));
  // 40 codes of the client's choosing, a standard one, and one the control plane closes with.
  sessions.slice(0, 40).forEach((ws, i) => ws.close(3000 + i * 37));
  sessions[40]?.close(1000);
  const clientCloses = await fetch(`${sim.base}/_sim/journal/wait?kind=closed&count=41&timeout=5000`);
  expect(clientCloses.status).toBe(200);
  const closed = await fetch(`${sim.base}/_sim/connections/close`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ code: 4003 }),
  });
  expect(await closed.json()).toEqual({ closed: 1 });
  const wait = await fetch(`${sim.base}/_sim/journal/wait?kind=closed&count=42&timeout=5000`);
  expect(wait.status).toBe(200);
  const metrics = await (await fetch(`${sim.base}/metrics`)).text();
  const series = metrics.split('\n').filter((line) => line.startsWith('racedata_sessions_closed_total{'));
  expect(series.sort()).toEqual([
    'racedata_sessions_closed_total{transport="event-stream",code="1000"} 1',
    'racedata_sessions_closed_total{transport="event-stream",code="4003"} 1',
    'racedata_sessions_closed_total{transport="event-stream",code="other"} 40',
  ]);
});
