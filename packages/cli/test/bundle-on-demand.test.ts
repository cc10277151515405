/**
 * The npm bin's bundle holds what a simulator's start runs; the modules only a command, a page or
 * a feature asks for later are in racedata-sim.on-demand.js beside it (scripts/bundle-on-demand.mjs).
 * A start, its first answers and a race day never need that file; /metrics, the API documents,
 * the console and every other command load it when asked, and without it say which file is
 * missing while the simulator goes on serving.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { bundleCopyPerTest, ON_DEMAND_FILE } from './bundle-copy';

const copy = bundleCopyPerTest('racedata-on-demand-');
const TOKEN = 'dGVzdHVzZXI=';

interface Run {
  ports: number[];
  stderr(): string;
  stop(): Promise<number | null>;
}

/** Starts `args` from the copy; resolves once every simulator it starts has said where it listens. */
async function start(args: readonly string[], simulators = 1): Promise<Run> {
  const child = copy.run([...args, '--host', '127.0.0.1'], []);
  let out = '';
  let err = '';
  child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const ports = await new Promise<number[]>((resolve, reject) => {
    const deadline = setTimeout(() => reject(new Error(`not listening within 20 s: ${out} ${err}`)), 20_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const found = [...out.matchAll(/listening on http:\/\/127\.0\.0\.1:(\d+)/g)].map((m) => Number(m[1]));
      if (found.length >= simulators) {
        clearTimeout(deadline);
        resolve(found);
      }
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code} before listening: ${out} ${err}`)));
  });
  return {
    ports,
    stderr: () => err,
    async stop() {
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      return exited;
    },
  };
}

/** The CLI run from the copy with `args` to its end: exit code and what it wrote. */
async function runToEnd(args: readonly string[]) {
  const child = copy.run(args);
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, out, err };
}

const removeOnDemand = () => rmSync(path.join(path.dirname(copy.bundle), ON_DEMAND_FILE));
const get = (port: number, url: string, init?: RequestInit) => fetch(`http://127.0.0.1:${port}${url}`, init);
const message = (channel: string) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ channel, date: '2026-06-06', trackId: 5, raceNr: 1, payload: { n: 1 } }),
});

describe('a start needs only the bundle', () => {
  beforeEach(removeOnDemand);

  test('json starts, stores and serves events without the on-demand file', async () => {
    const run = await start(['json', '--port', '0']);
    const [port] = run.ports as [number];
    expect((await get(port, '/health')).status).toBe(200);
    expect((await get(port, '/api/message', message('RaceDayTrot'))).status).toBeLessThan(300);
    const events = await get(port, '/customerapi/events?lastEventId=0', {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(events.status).toBe(200);
    expect(JSON.stringify(await events.json())).toContain('RaceDayTrot');
    expect((await get(port, '/_sim/state')).status).toBe(200);
    expect(await run.stop()).toBe(0);
    expect(run.stderr()).not.toContain(ON_DEMAND_FILE);
  });

  test('json issues and takes a JWT (--token-mode jwt) without the on-demand file: no load mid-traffic', async () => {
    const run = await start(['json', '--port', '0', '--token-mode', 'jwt']);
    const [port] = run.ports as [number];
    const auth = await get(port, '/customerapi/authenticate/subscription', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ key: 'testuser', secret: 'testpassword' }),
    });
    expect(auth.status).toBe(200);
    const token = /^Bearer (\S+)$/.exec(auth.headers.get('authorization') ?? '')?.[1] ?? '';
    expect(token.split('.')).toHaveLength(3);
    expect((await get(port, '/api/message', message('RaceDayTrot'))).status).toBeLessThan(300);
    const events = await get(port, '/customerapi/events?lastEventId=0', {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(events.status).toBe(200);
    expect(await run.stop()).toBe(0);
  });

  test('legacy starts and takes a Durable message without the on-demand file', async () => {
    const run = await start(['legacy', '--port', '0']);
    const [port] = run.ports as [number];
    expect((await get(port, '/health')).status).toBe(200);
    const post = (body: string) =>
      get(port, '/customerapi/channel/id/Durable?payloadKey=k1', {
        method: 'POST',
        headers: { 'content-type': 'application/xml' },
        body,
      });
    expect((await post('<a><b/></a>')).status).toBe(200);
    // A refused body takes the error path, which loads what answers errors.
    expect((await post('<a>')).status).toBe(400);
    expect((await get(port, '/_sim/state')).status).toBe(200);
    expect(await run.stop()).toBe(0);
  });

  test('both simulators playing a race day with every edge case start without the on-demand file', async () => {
    const run = await start(
      [
        'all',
        '--json-port',
        '0',
        '--legacy-port',
        '0',
        '--race-day',
        'today',
        '--race-day-edge-cases',
        'all',
      ],
      2,
    );
    for (const port of run.ports) expect((await get(port, '/health')).status).toBe(200);
    expect(await run.stop()).toBe(0);
  });
});

describe('what a start leaves for later', () => {
  test("/metrics, the API documents, the console's script and the full command line load it when asked", async () => {
    const run = await start(['json', '--port', '0']);
    const [port] = run.ports as [number];
    const metrics = await get(port, '/metrics');
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toContain('nodejs_heap_size_used_bytes');
    expect((await get(port, '/_sim/openapi.json')).status).toBe(200);
    expect((await get(port, '/_sim/ui/console.js')).status).toBe(200);
    expect(await run.stop()).toBe(0);
    const help = await runToEnd(['certify', '--help']);
    expect(help.code).toBe(0);
    expect(help.out).toContain('Usage: racedata-sim certify');
  });

  test('without the on-demand file, what needs it says which file is missing; the simulator goes on', async () => {
    removeOnDemand();
    const help = await runToEnd(['--help']);
    expect(help.code).not.toBe(0);
    expect(help.err).toContain(
      "the bundle's on-demand part, which npm run build writes beside it, cannot be read",
    );
    expect(help.err).toContain(ON_DEMAND_FILE);
    const run = await start(['json', '--port', '0']);
    const [port] = run.ports as [number];
    const metrics = await get(port, '/metrics');
    expect(metrics.status).toBeGreaterThanOrEqual(500);
    expect((await get(port, '/health')).status).toBe(200);
    expect(await run.stop()).toBe(0);
  });
});

describe("the on-demand part's own code cache", () => {
  const cacheOf = () => path.join(path.dirname(copy.bundle), `${ON_DEMAND_FILE}.v8cache`);
  const HEADER = /^racedata-sim on-demand cache 1 ([0-9a-f]+) v[\d.]+ \w+ covers ([0-9,]+) *\n/;
  const header = () => HEADER.exec(readFileSync(cacheOf()).toString('latin1'));
  const covers = () => new Set((header()?.[2] ?? '').split(',').map(Number));

  async function help(args: readonly string[] = ['--help']): Promise<void> {
    const run = await runToEnd(args);
    expect(run.code).toBe(0);
    expect(run.out).toContain('Usage: racedata-sim');
  }

  async function firstMetrics(): Promise<void> {
    const run = await start(['json', '--port', '0']);
    const metrics = await get(run.ports[0] as number, '/metrics');
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toContain('nodejs_heap_size_used_bytes');
    expect(await run.stop()).toBe(0);
  }

  test('the first run that loads the part writes it at exit, keyed to the part and aligned', async () => {
    // A plain start never loads the part, so it writes no cache of it.
    const plain = await start(['json', '--port', '0']);
    expect((await get(plain.ports[0] as number, '/health')).status).toBe(200);
    expect(await plain.stop()).toBe(0);
    expect(existsSync(cacheOf())).toBe(false);
    await help();
    const written = readFileSync(cacheOf());
    const part = /^\/\/ racedata-sim on-demand ([0-9a-f]+)\n/.exec(
      readFileSync(path.join(path.dirname(copy.bundle), ON_DEMAND_FILE), 'latin1'),
    );
    expect(header()?.[1]).toBe(part?.[1]);
    expect(covers().size).toBeGreaterThan(0);
    // Indices in order, so a reader sees which modules a run required.
    const indices = header()?.[2]?.split(',').map(Number) ?? [];
    expect(indices).toEqual([...indices].sort((a, b) => a - b));
    expect((written.indexOf(10) + 1) % 8).toBe(0);
    expect(written.length).toBeGreaterThan(50_000);
  });

  test('a run that needs only what it covers leaves it; one that needs more adds to it', async () => {
    await help();
    const mtime = statSync(cacheOf()).mtimeMs;
    const before = covers();
    const size = readFileSync(cacheOf()).length;
    await help();
    expect(statSync(cacheOf()).mtimeMs).toBe(mtime);
    // prom-client is none of --help's modules.
    await firstMetrics();
    const after = covers();
    for (const index of before) expect(after.has(index)).toBe(true);
    expect(after.size).toBeGreaterThan(before.size);
    expect(readFileSync(cacheOf()).length).toBeGreaterThan(size);
    const grown = statSync(cacheOf()).mtimeMs;
    await help();
    await firstMetrics();
    expect(statSync(cacheOf()).mtimeMs).toBe(grown);
  });

  test('a cache V8 refuses, or one keyed to another build of the part, is not used, and is replaced', async () => {
    await help();
    const helpOnly = covers();
    await firstMetrics();
    expect(covers().size).toBeGreaterThan(helpOnly.size);
    const valid = header()?.[0] ?? '';
    writeFileSync(cacheOf(), Buffer.concat([Buffer.from(valid), Buffer.alloc(4096, 7)]));
    await help();
    expect(readFileSync(cacheOf()).length).toBeGreaterThan(50_000);
    // V8 kept nothing of the refused one: the new cache covers what this run compiled, no more.
    expect(covers()).toEqual(helpOnly);
    const current = header()?.[0] ?? '';
    const other = current.replace(/cache 1 [0-9a-f]+/, `cache 1 ${'0'.repeat(32)}`);
    expect(other).not.toBe(current);
    const data = readFileSync(cacheOf()).subarray(current.length);
    writeFileSync(cacheOf(), Buffer.concat([Buffer.from(other), data]));
    await help();
    expect(header()?.[0]).toBe(current);
  });

  test('a cache that cannot be written (a read-only install) costs nothing but the compile', async () => {
    // A directory where the cache would go: every write fails, as in a read-only image.
    mkdirSync(cacheOf());
    await help(['certify', '--help']);
    await firstMetrics();
    expect(statSync(cacheOf()).isDirectory()).toBe(true);
  });
});
