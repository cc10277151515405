/**
 * What a start loads, every start pays for. Simulators started without a race day (the default)
 * load only the race-day package's player (packages/race-day/src/player.ts); the generator,
 * timelines, actions, views and schemas load with the first day, or the first route that needs
 * them, and then work as ever.
 */
import type { FakeCli } from './cli-harness';

type Harness = typeof import('./cli-harness');

const WHOLE = '@racedata/race-day';
let loads: string[];
let cli: FakeCli | undefined;

beforeEach(() => {
  jest.resetModules();
  loads = [];
  // Keyed by the file it resolves to, so the player's own require of the whole package counts too.
  jest.doMock(WHOLE, () => {
    loads.push(WHOLE);
    return jest.requireActual(WHOLE);
  });
});

afterEach(async () => {
  cli?.signal();
  await cli?.exited;
  cli = undefined;
});

async function startAll(): Promise<{ json: number; legacy: number }> {
  const { fakeCli, bannerPort } = jest.requireActual<Harness>('./cli-harness');
  const { run } = jest.requireActual<typeof import('../src/main')>('../src/main');
  cli = fakeCli();
  const args = [
    'all',
    '--legacy-port',
    '0',
    '--json-port',
    '0',
    '--host',
    '127.0.0.1',
    '--log-level',
    'silent',
  ];
  void run(['node', 'racedata-sim', ...args, '--no-replay'], cli.ctx);
  const deadline = setTimeout(() => cli?.signal(), 15_000);
  await Promise.race([cli.waitForOutput(/next steps|see data/), cli.exited]);
  clearTimeout(deadline);
  const out = cli.stdout();
  return { json: bannerPort(out, 'JSON simulator'), legacy: bannerPort(out, 'legacy XML simulator') };
}

const get = async (port: number, path: string) => {
  const res = await fetch(`http://127.0.0.1:${port}${path}`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

test('a start without a race day answers on both simulators without loading the whole race-day package', async () => {
  const ports = await startAll();
  expect((await get(ports.json, '/health')).status).toBe(200);
  expect((await get(ports.legacy, '/health')).status).toBe(200);
  expect((await get(ports.json, '/_sim/state')).body).toMatchObject({ raceDay: { on: false } });
  expect((await get(ports.legacy, '/_sim/race-day')).body).toMatchObject({ code: 'RACE_DAY_NOT_RUNNING' });
  expect(loads).toEqual([]);
});

test('the first day, and the routes that need the rest of the package, load it once and work', async () => {
  const ports = await startAll();
  const started = await fetch(`http://127.0.0.1:${ports.json}/_sim/race-day`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ date: '2026-06-06', seed: 7 }),
  });
  expect(started.status).toBe(200);
  expect(loads).toEqual([WHOLE]);
  const day = await get(ports.legacy, '/_sim/race-day');
  expect(day.body).toMatchObject({ date: '2026-06-06', seed: 7 });
  expect((day.body.meetings as unknown[]).length).toBeGreaterThan(0);
  const schemas = await get(ports.json, '/_sim/schemas');
  expect((schemas.body.channels as unknown[]).length).toBeGreaterThan(0);
  expect(loads).toEqual([WHOLE]);
});
