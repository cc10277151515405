import http from 'node:http';
import { MAX_ADVANCE_MS } from '@racedata/control';
import { healthCheck, startSimProcess, type SimProcess } from '@racedata/test-support/sim-process';

// Properties the control-plane fuzz found broken and that now hold: the clock's total offset, the
// console stream's resent state, and requests from other sites or rebound host names.

function post(port: number, path: string, body: string, headers: http.OutgoingHttpHeaders): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, method: 'POST', path, headers, agent: false },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const JSON_TYPE = { 'content-type': 'application/json' };

async function faultRules(sim: SimProcess): Promise<number> {
  return ((await (await fetch(`${sim.base}/_sim/faults`)).json()) as { rules: unknown[] }).rules.length;
}

describe.each(['json', 'legacy'] as const)('%s control plane', (kind) => {
  let sim: SimProcess;

  beforeEach(async () => {
    sim = await startSimProcess(kind, [], { LOG_LEVEL: 'warn' });
  });

  afterEach(async () => {
    await sim?.close();
  });

  // The 2,740th advance of a hundred years took the clock past the largest date; /_sim/state and
  // the advance itself then answered 500 for good.
  it('advances the clock as often as asked without ever answering 5xx', async () => {
    const statuses = new Set<number>();
    for (let i = 0; i < 2800; i++) {
      const res = await fetch(`${sim.base}/_sim/clock/advance`, {
        method: 'POST',
        headers: JSON_TYPE,
        body: JSON.stringify({ ms: MAX_ADVANCE_MS }),
      });
      await res.arrayBuffer();
      statuses.add(res.status);
    }
    expect([...statuses].filter((s) => s >= 500)).toEqual([]);
    expect((await fetch(`${sim.base}/_sim/state`)).status).toBe(200);
  }, 60_000);

  // The console's state event carried every rule with its body and was sent again each second
  // (its time changed), so five 1 MB rules cost a reader 5 MB a second for as long as they existed.
  // Now such a body is refused (413) and the state event goes out only when it changes.
  it('sends a stream reader a large fault rule body about once, not every second', async () => {
    const rule = (i: number) =>
      JSON.stringify({
        match: { path: `/nowhere/${i}` },
        action: { type: 'status', status: 418, body: 'x'.repeat(1_000_000) },
      });
    let accepted = 0;
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${sim.base}/_sim/faults`, {
        method: 'POST',
        headers: JSON_TYPE,
        body: rule(i),
      });
      await res.arrayBuffer();
      if (res.status === 201) accepted++;
    }
    const controller = new AbortController();
    const res = await fetch(`${sim.base}/_sim/stream`, { signal: controller.signal });
    let bytes = 0;
    // A measurement window: nothing the server does marks the end of "a few seconds of resends".
    const window = setTimeout(() => controller.abort(), 3500);
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.length;
    } catch {
      // Aborted at the end of the window.
    } finally {
      clearTimeout(window);
    }
    expect(bytes).toBeLessThan(accepted * 1_000_000 * 1.5 + 1_000_000);
  });

  // A page on another site can send this text/plain POST without a preflight, and a rebound DNS
  // name reaches loopback with its own Host.
  it('refuses a cross-site simple POST and a foreign Host, changing nothing', async () => {
    const rule = '{"match":{"path":"/nowhere"},"action":{"type":"status","status":503}}';
    expect(
      (await fetch(`${sim.base}/_sim/faults`, { method: 'POST', headers: JSON_TYPE, body: rule })).status,
    ).toBe(201);
    const body = '{"faults":true}';
    const crossSite = await post(sim.port, '/_sim/reset', body, {
      'content-type': 'text/plain',
      origin: 'http://evil.example',
    });
    const rebound = await post(sim.port, '/_sim/reset', body, {
      'content-type': 'application/json',
      host: 'evil.example',
    });
    expect({
      crossSite: crossSite >= 400 && crossSite < 500,
      rebound: rebound >= 400 && rebound < 500,
    }).toEqual({
      crossSite: true,
      rebound: true,
    });
    expect((await healthCheck(sim.port)).status).toBe(200);
    expect(await faultRules(sim)).toBe(1);
  });
});
