import { spawn, type ChildProcess } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(__dirname, '..', '..', '..');
const builtBundle = path.join(root, 'packages', 'cli', 'dist', 'racedata-sim.cjs');
const loader = path.join(root, 'packages', 'cli', 'bin', 'code-cache.js');
const HEADER = /^racedata-sim code cache 2 ([0-9a-f]+) v[\d.]+ \w+\n/;

// Each test runs its own copy of the bundle, so its cache is its own and the repository's
// cache (which every other CLI start in the suite may write) is never touched.
let dir: string;
let bundle: string;
let cache: string;
const children: ChildProcess[] = [];

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'racedata-code-cache-'));
  bundle = path.join(dir, 'racedata-sim.cjs');
  cache = `${bundle}.v8cache`;
  copyFileSync(builtBundle, bundle);
});

afterEach(() => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** Starts the JSON simulator from the copy, waits for a 200 from /health, then stops it. */
async function startAndStop(): Promise<void> {
  const script = `require(${JSON.stringify(loader)}).runBundle(${JSON.stringify(bundle)})`;
  const child = spawn(process.execPath, ['-e', script, 'x', 'json', '--port', '0', '--host', '127.0.0.1'], {
    env: { ...process.env, LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code} before listening: ${out}`)));
  });
  expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  expect(await exited).toBe(0);
}

describe('the npm bin runs the bundle through a V8 code cache', () => {
  test('a first start writes the cache at exit, keyed to the bundle', async () => {
    expect(existsSync(cache)).toBe(false);
    await startAndStop();
    const written = readFileSync(cache);
    const header = HEADER.exec(written.toString('latin1'));
    // scripts/bundle.mjs names each build on the bundle's first line.
    const build = /^\/\/ racedata-sim build ([0-9a-f]+)\n/.exec(readFileSync(bundle, 'latin1'));
    expect(build?.[1]).toMatch(/^[0-9a-f]{32}$/);
    expect(header?.[1]).toBe(build?.[1]);
    // V8's data follows the header: far more than a header alone.
    expect(written.length).toBeGreaterThan(100_000);
  });

  test('a start that finds a cache V8 accepts leaves it as it is', async () => {
    await startAndStop();
    const first = readFileSync(cache);
    const firstMtime = statSync(cache).mtimeMs;
    await startAndStop();
    expect(statSync(cache).mtimeMs).toBe(firstMtime);
    expect(readFileSync(cache).equals(first)).toBe(true);
  });

  test('a cache V8 refuses (garbage after a valid header) still starts, and is replaced', async () => {
    await startAndStop();
    const header = HEADER.exec(readFileSync(cache).toString('latin1'))?.[0] ?? '';
    writeFileSync(cache, Buffer.concat([Buffer.from(header), Buffer.alloc(4096, 7)]));
    await startAndStop();
    expect(readFileSync(cache).length).toBeGreaterThan(100_000);
  });

  test('a cache of another build is not used: a rebuilt bundle gets a new cache', async () => {
    await startAndStop();
    const before = readFileSync(cache);
    const source = readFileSync(bundle, 'latin1');
    writeFileSync(
      bundle,
      source.replace(/^\/\/ racedata-sim build [0-9a-f]+/, '// racedata-sim build 0123abcd'),
      'latin1',
    );
    await startAndStop();
    const after = readFileSync(cache);
    expect(after.equals(before)).toBe(false);
    expect(HEADER.exec(after.toString('latin1'))?.[1]).toBe('0123abcd');
  });
});
