import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startSimProcess, type SimProcess } from '@racedata/test-support/sim-process';
import { ControlClient, JsonControlClient, LegacyControlClient } from 'racedata-sim';

// Every route of the control plane must have a call on the client. The routes are read from
// where they are defined (the routers' `case` labels and path literals, and each simulator's
// OpenAPI document), and the calls are seen on the wire: every client call below runs against
// the built command in a process of its own, through a fetch that records what was requested.
// A route added to the control plane without a client call fails the last test.

const CONTROL = path.resolve(__dirname, '../../control/src');
const ROUTER_FILES = ['control-plane.ts', 'console-routes.ts'].map((f) => path.join(CONTROL, f));

/** Routes the client leaves to a browser on purpose, with why. */
const NOT_FOR_THE_CLIENT: Readonly<Record<string, string>> = {
  'GET /_sim/ui': 'the QA console page and its assets, for a browser',
  'GET /_sim/docs': 'the docs pages the console links, HTML for a browser',
  'GET /_sim/stream': 'Server-Sent Events for the console; tests wait with waitFor (journal waits) instead',
};

/** `GET /_sim/faults/{id}` for `GET /_sim/faults/f3`: a route's placeholder matches one segment. */
function matches(template: string, route: string): boolean {
  const pattern = template.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '[^/]+');
  return new RegExp(`^${pattern}$`).test(route);
}

/** Method and path of every route the routers name, from their source. */
function routerRoutes(): { routes: Set<string>; paths: Set<string> } {
  const routes = new Set<string>();
  const paths = new Set<string>();
  for (const file of ROUTER_FILES) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/'(GET|POST|DELETE) (\/_sim\/[^' ]*?)(\/?)'/g)) {
      routes.add(`${m[1]} ${m[2]}${m[3] ? '/{id}' : ''}`);
    }
    for (const m of text.matchAll(/'(\/_sim\/[a-z._/-]*)'/g)) {
      const literal = m[1] as string;
      if (literal !== '/_sim/') paths.add(literal.endsWith('/') ? `${literal}{id}` : literal);
    }
  }
  return { routes, paths };
}

function documentedRoutes(doc: Record<string, unknown>): string[] {
  const docPaths = doc.paths as Record<string, Record<string, unknown>>;
  return Object.entries(docPaths)
    .filter(([p]) => p.startsWith('/_sim/'))
    .flatMap(([p, ops]) => Object.keys(ops).map((method) => `${method.toUpperCase()} ${p}`));
}

describe('every control-plane route has a client call', () => {
  let jsonSim: SimProcess;
  let legacySim: SimProcess;
  const requested = new Set<string>();
  const recording: typeof fetch = (input, init) => {
    const url = new URL(String(input));
    // Sandbox requests run under /sandboxes/<id>; the route is the same.
    requested.add(`${init?.method ?? 'GET'} ${url.pathname.replace(/^\/sandboxes\/[^/]+/, '')}`);
    return fetch(input, init);
  };
  const docs: Record<string, unknown>[] = [];

  beforeAll(async () => {
    [jsonSim, legacySim] = await Promise.all([startSimProcess('json'), startSimProcess('legacy')]);
  });
  afterAll(async () => {
    await Promise.all([jsonSim?.close(), legacySim?.close()]);
  });

  /** The calls both simulators share, each checked for the answer it promises. */
  async function sharedCalls(client: JsonControlClient | LegacyControlClient, kind: string) {
    expect(await client.health()).toMatchObject({ status: 'ok', simulator: kind });
    expect((await client.state()).simulator).toBe(kind);
    expect((await client.users())[0]).toEqual({
      key: 'testuser',
      name: 'default',
      secret: 'testpassword',
      token: expect.any(String),
      channels: expect.arrayContaining([expect.any(String)]),
    });
    expect((await client.catalog()).length).toBeGreaterThan(0);
    const received = await client.journal({ kind: 'received' });
    const seq = received.entries[0]?.seq ?? 0;
    expect((await client.message(seq)).entry).toMatchObject({ seq, kind: 'received' });
    await client.waitFor({ kind: 'received' }, { timeout: 1000 });
    const rule = await client.addFault({ match: { transport: 'authenticate' }, action: { type: 'hold' } });
    expect(await client.faults()).toHaveLength(1);
    expect(await client.removeFault(rule.id)).toBe(true);
    expect(await client.clearFaults()).toBe(0);
    expect(await client.closeConnections()).toBe(0);
    expect(await client.expireTokens('testuser')).toEqual(['testuser']);
    expect((await client.advanceClock(1)).advancedMs).toBe(1);
    expect(await client.metrics()).toContain('racedata_');
    // Only a certify simulator runs a certification (packages/certify/test/certification-routes.test.ts).
    expect(await client.certification()).toBeUndefined();
    expect((await client.replay()).on).toBe(false);
    expect(await client.startReplay({ intervalMs: 60_000 })).toMatchObject({ on: true, intervalMs: 60_000 });
    expect(await client.replaySpeed({ maxDelayMs: 50_000 })).toMatchObject({ mode: 'timed' });
    expect((await client.pauseReplay()).paused).toBe(true);
    expect((await client.resumeReplay()).paused).toBe(false);
    expect((await client.nextRace()).on).toBe(true);
    expect(await client.raceDay()).toBeUndefined();
    expect(await client.startRaceDay({ date: '2026-05-13', at: '14:00' })).toMatchObject({
      date: '2026-05-13',
    });
    expect((await client.raceDay())?.play.at).toBe('14:00');
    const plan = await client.raceDay.plan();
    const meeting = plan.meetings.find((m) => m.races.some((r) => r.phase === 'scheduled'))!;
    const race = meeting.races.find((r) => r.phase === 'scheduled')!;
    const ref = { trackId: meeting.trackId, raceNr: race.raceNr };
    const startNr = race.starters.find((st) => st.status === 'running')!.startNr;
    expect((await client.raceDay.scratch({ ...ref, startNr })).emitted.map((e) => e.legacyChannel)).toEqual([
      'Scratchings',
      'StartList',
    ]);
    expect((await client.raceDay.goto({ ...ref, phase: 'parade' })).phase).toBe('parade');
    expect(await client.stopRaceDay()).toBe(true);
    expect((await client.payloadSchemas()).channels.length).toBe(16);
    expect(await client.payloadSchema('ResultTrot')).toHaveProperty('$id');
    docs.push(await client.openApi());
    expect(await client.asyncApi()).toHaveProperty('asyncapi');
    const sandbox = await client.sandbox();
    expect(sandbox.control).toBeInstanceOf(client.constructor);
    expect((await client.sandboxes()).sandboxes.map((s) => s.id)).toEqual([sandbox.id]);
    expect((await sandbox.control.state()).simulator).toBe(kind);
    await sandbox.close();
    const other = await client.sandbox();
    await client.deleteSandbox(other.id);
    expect((await client.reset()).cleared).toEqual(expect.any(Object));
  }

  test('the JSON simulator: shared calls, post and seed', async () => {
    const json = new JsonControlClient(jsonSim.base, { fetch: recording });
    expect(await json.post({ channel: 'RaceDayTrot', date: '2024-05-11', payload: { n: 1 } })).toMatchObject({
      delivery: 'durable',
    });
    const events = [1, 2, 3].map((n) => ({ channel: 'RaceDayTrot', date: '2024-05-11', payload: { n } }));
    expect(await json.seed(events)).toEqual({ seeded: 3, firstEventId: 2, lastEventId: 4 });
    await sharedCalls(json, 'json');
  });

  test('the legacy simulator: shared calls and inject', async () => {
    const legacy = new LegacyControlClient(legacySim.base, { fetch: recording });
    expect(await legacy.inject('<race id="1"/>')).toEqual({ delivery: 'durable', queued: 1 });
    await sharedCalls(legacy, 'legacy');
  });

  test('no route of the routers or the OpenAPI documents is left without a call', () => {
    const { routes, paths } = routerRoutes();
    const all = new Set([...routes, ...docs.flatMap(documentedRoutes)]);
    // The source scan must find the routes at all, or this test would pass on nothing.
    expect(all.size).toBeGreaterThan(20);
    const skipped = (route: string) =>
      Object.keys(NOT_FOR_THE_CLIENT).some((r) => route === r || route.startsWith(`${r}`));
    const uncalled = [...all].filter((r) => !skipped(r) && ![...requested].some((q) => matches(r, q)));
    const uncalledPaths = [...paths].filter(
      (p) => !skipped(`GET ${p}`) && ![...requested].some((q) => matches(p, q.split(' ')[1] as string)),
    );
    expect(uncalled).toEqual([]);
    expect(uncalledPaths).toEqual([]);
  });

  test('the base ControlClient has no calls of one simulator only', () => {
    const base = Object.getOwnPropertyNames(ControlClient.prototype);
    expect(base).not.toContain('post');
    expect(base).not.toContain('seed');
    expect(base).not.toContain('inject');
  });
});
