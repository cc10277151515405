/**
 * Requests a hold or delay fault rule keeps waiting are let go as soon as their clients hang up,
 * and removing the rule or resetting lets every one still waiting go on: seen from outside, on a
 * simulator running as its own process, through GET /metrics.
 */
import http from 'node:http';
import WebSocket from 'ws';
import { closeAll, TOKENS } from '@racedata/test-support';
import { startSimProcess, type SimProcess } from '@racedata/test-support/sim-process';

afterEach(closeAll);

const DAY_MS = 86_400_000;

async function addRule(sim: SimProcess, rule: unknown): Promise<string> {
  const res = await fetch(`${sim.base}/_sim/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(rule),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

/** racedata_fault_waiting_requests by action, from GET /metrics. */
async function waiting(sim: SimProcess): Promise<Record<string, number>> {
  const text = await (await fetch(`${sim.base}/metrics`)).text();
  const found: Record<string, number> = {};
  for (const m of text.matchAll(/^racedata_fault_waiting_requests\{action="(\w+)"\} (\d+)$/gm)) {
    found[m[1] as string] = Number(m[2]);
  }
  return found;
}

/** Scrapes until the waiting counts are `expected`; bounded, so a leak fails with what it saw. */
async function waitingBecomes(sim: SimProcess, expected: Record<string, number>): Promise<void> {
  const deadline = Date.now() + 10_000;
  let seen = await waiting(sim);
  while (JSON.stringify(seen) !== JSON.stringify(expected) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    seen = await waiting(sim);
  }
  expect(seen).toEqual(expected);
}

/** GETs `path` on a connection of its own; the request, and its status once answered. */
function get(sim: SimProcess, path: string): { req: http.ClientRequest; status: Promise<number | string> } {
  const req = http.get(`${sim.base}${path}`, {
    agent: false,
    headers: { authorization: `Bearer ${TOKENS.testuser}` },
  });
  const status = new Promise<number | string>((resolve) => {
    req.once('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'error'));
  });
  return { req, status };
}

describe('requests waiting on a fault rule', () => {
  test('JSON: abandoned held and 24 h delayed polls are let go at once, with the rules still in force', async () => {
    const sim = await startSimProcess('json');
    await addRule(sim, { match: { transport: 'events' }, action: { type: 'hold' } });
    await addRule(sim, { match: { transport: 'filtered-events' }, action: { type: 'delay', ms: DAY_MS } });
    const n = 150;
    const clients = [
      ...Array.from({ length: n }, () => get(sim, '/customerapi/events?lastEventId=0')),
      ...Array.from({ length: n }, () =>
        get(sim, '/customerapi/filtered-events?channel=RaceDayTrot&startDate=2026-11-01&endDate=2026-11-30'),
      ),
    ];
    await waitingBecomes(sim, { hold: n, delay: n });
    for (const { req } of clients) req.destroy();
    await waitingBecomes(sim, { hold: 0, delay: 0 });
    const rules = (await (await fetch(`${sim.base}/_sim/faults`)).json()) as { rules: unknown[] };
    expect(rules.rules).toHaveLength(2);
  });

  test('legacy: abandoned held STOMP upgrades and delayed listens are let go at once', async () => {
    const sim = await startSimProcess('legacy');
    await addRule(sim, { match: { transport: 'stomp' }, action: { type: 'hold' } });
    await addRule(sim, { match: { transport: 'listen' }, action: { type: 'delay', ms: DAY_MS } });
    const n = 40;
    const sockets = Array.from({ length: n }, () => {
      const ws = new WebSocket(`${sim.wsBase}/api/v1/channels/connect`, ['v12.stomp'], {
        headers: { authorization: `Bearer ${TOKENS.testuser}` },
      });
      ws.on('error', () => undefined);
      return ws;
    });
    const listens = Array.from({ length: n }, () => get(sim, '/customerapi/channels/listen'));
    await waitingBecomes(sim, { hold: n, delay: n });
    for (const ws of sockets) ws.terminate();
    for (const { req } of listens) req.destroy();
    await waitingBecomes(sim, { hold: 0, delay: 0 });

    // One still there when the rule goes completes its handshake and speaks STOMP.
    const kept = new WebSocket(`${sim.wsBase}/api/v1/channels/connect`, ['v12.stomp'], {
      headers: { authorization: `Bearer ${TOKENS.testuser}` },
    });
    const opened = new Promise<void>((resolve, reject) => {
      kept.once('open', () => resolve());
      kept.once('error', reject);
    });
    await waitingBecomes(sim, { hold: 1, delay: 0 });
    expect((await fetch(`${sim.base}/_sim/faults`, { method: 'DELETE' })).status).toBe(200);
    await opened;
    const connected = new Promise<string>((resolve) =>
      kept.once('message', (data: Buffer) => resolve(data.toString())),
    );
    kept.send('CONNECT\naccept-version:1.2\nheart-beat:0,0\n\n\0');
    expect(await connected).toMatch(/^CONNECTED\n/);
    kept.close();
  });

  test('removing a delay rule, or a reset, lets its waiting requests go on now', async () => {
    const sim = await startSimProcess('json', ['--long-poll-timeout', '50']);
    const rule = await addRule(sim, {
      match: { transport: 'events' },
      action: { type: 'delay', ms: DAY_MS },
    });
    const first = get(sim, '/customerapi/events?lastEventId=0');
    await waitingBecomes(sim, { hold: 0, delay: 1 });
    expect((await fetch(`${sim.base}/_sim/faults/${rule}`, { method: 'DELETE' })).status).toBe(200);
    expect(await first.status).toBe(204);
    await waitingBecomes(sim, { hold: 0, delay: 0 });

    // Used up by its one firing, the rule is gone at once; its request still waits, until a reset.
    await addRule(sim, { match: { transport: 'events' }, action: { type: 'delay', ms: DAY_MS }, times: 1 });
    const second = get(sim, '/customerapi/events?lastEventId=0');
    await waitingBecomes(sim, { hold: 0, delay: 1 });
    expect(((await (await fetch(`${sim.base}/_sim/faults`)).json()) as { rules: unknown[] }).rules).toEqual(
      [],
    );
    expect((await fetch(`${sim.base}/_sim/reset`, { method: 'POST' })).status).toBe(200);
    expect(await second.status).toBe(204);
    await waitingBecomes(sim, { hold: 0, delay: 0 });
  });
});
