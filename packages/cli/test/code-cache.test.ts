import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { bundleCopyPerTest } from './bundle-copy';

const LOADER = path.resolve(__dirname, '..', 'bin', 'code-cache.js');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { BUNDLE_OPENING, BUNDLE_CLOSING } = require(LOADER) as {
  BUNDLE_OPENING: string;
  BUNDLE_CLOSING: string;
};

const HEADER = /^racedata-sim code cache 4 ([0-9a-f]+) v[\d.]+ \w+ covers ([a-z,-]+) *\n/;

// Each test runs its own copy of the bundle, so its cache is its own.
const copy = bundleCopyPerTest('racedata-code-cache-');
let bundle: string;
let cache: string;

beforeEach(() => {
  bundle = copy.bundle;
  cache = `${bundle}.v8cache`;
});

/** Runs the bundle's CLI from the copy with `args` through the loader, as the npm bin does. */
const runCli = (args: readonly string[]) => copy.run(args);

/** Starts a simulator (JSON by default) from the copy, waits for a 200 from /health, then stops it. */
async function startAndStop(kind: 'json' | 'legacy' = 'json'): Promise<void> {
  const child = runCli([kind, '--port', '0', '--host', '127.0.0.1']);
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

/** `racedata-sim --version` from the copy: a run that starts no simulator. */
async function version(): Promise<void> {
  const child = runCli(['--version']);
  expect(await new Promise((resolve) => child.once('exit', resolve))).toBe(0);
}

const coversOf = (file: string) => HEADER.exec(readFileSync(file).toString('latin1'))?.[2];

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
    expect(header?.[2]).toBe('json');
    // V8's data follows the header, at a multiple of 8 bytes (V8 copies data it finds unaligned).
    expect(header?.[0].length).toBe(written.indexOf(10) + 1);
    expect((written.indexOf(10) + 1) % 8).toBe(0);
    expect(written.length).toBeGreaterThan(100_000);
  });

  test('a cache whose header is not padded (an older loader wrote it) is still taken', async () => {
    await startAndStop();
    const written = readFileSync(cache);
    const end = written.indexOf(10);
    const unpadded = Buffer.concat([
      Buffer.from(written.subarray(0, end).toString('latin1').trimEnd() + '\n'),
      written.subarray(end + 1),
    ]);
    expect(unpadded.length).toBeLessThan(written.length);
    writeFileSync(cache, unpadded);
    const mtime = statSync(cache).mtimeMs;
    await startAndStop();
    expect(statSync(cache).mtimeMs).toBe(mtime);
  });

  test('a start that finds a cache V8 accepts leaves it as it is', async () => {
    await startAndStop();
    const first = readFileSync(cache);
    const firstMtime = statSync(cache).mtimeMs;
    await startAndStop();
    expect(statSync(cache).mtimeMs).toBe(firstMtime);
    expect(readFileSync(cache).equals(first)).toBe(true);
  });

  test('a cache from a run that started no simulator is written again by the first start', async () => {
    await version();
    expect(coversOf(cache)).toBe('-');
    const small = readFileSync(cache).length;
    await startAndStop();
    expect(coversOf(cache)).toBe('json');
    expect(readFileSync(cache).length).toBeGreaterThan(small);
    const mtime = statSync(cache).mtimeMs;
    await version();
    expect(statSync(cache).mtimeMs).toBe(mtime);
  });

  test('a run of a simulator command that starts nothing (its --help, a bad flag) covers no start', async () => {
    for (const args of [
      ['json', '--help'],
      ['legacy', '--port', 'abc'],
    ]) {
      const child = runCli(args);
      await new Promise((resolve) => child.once('exit', resolve));
    }
    // Taken as a start's cache, it would leave every later start compiling what it runs.
    expect(coversOf(cache)).toBe('-');
    const small = readFileSync(cache).length;
    await startAndStop('legacy');
    expect(coversOf(cache)).toBe('legacy');
    expect(readFileSync(cache).length).toBeGreaterThan(small);
  });

  test('a start of the other simulator adds its code to the cache, which then covers both', async () => {
    await startAndStop('json');
    const json = readFileSync(cache).length;
    await startAndStop('legacy');
    expect(coversOf(cache)).toBe('json,legacy');
    expect(readFileSync(cache).length).toBeGreaterThan(json);
    const mtime = statSync(cache).mtimeMs;
    await startAndStop('json');
    expect(statSync(cache).mtimeMs).toBe(mtime);
  });

  test('a bundle that cannot be read says why, and the process exits 1', () => {
    // The background read (runBundle) only starts on a file it could open; anything else goes to
    // the plain read, whose error names the file.
    const missing = `${bundle}.missing`;
    const run = spawnSync(
      process.execPath,
      ['-e', `require(${JSON.stringify(LOADER)}).runBundle(${JSON.stringify(missing)})`],
      { encoding: 'utf8' },
    );
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('ENOENT');
    expect(run.stderr).toContain(missing);
    expect(existsSync(`${missing}.v8cache`)).toBe(false);
  });

  test('a cache V8 refuses (garbage after a valid header) still starts, and is replaced', async () => {
    await startAndStop();
    const header = HEADER.exec(readFileSync(cache).toString('latin1'))?.[0] ?? '';
    writeFileSync(cache, Buffer.concat([Buffer.from(header), Buffer.alloc(4096, 7)]));
    await startAndStop();
    expect(readFileSync(cache).length).toBeGreaterThan(100_000);
  });

  test('the bundle is its own script: its cache is taken with the file as it is, and it runs as a module', async () => {
    const source = readFileSync(bundle, 'latin1');
    expect(source.startsWith(BUNDLE_OPENING, source.indexOf('\n') + 1)).toBe(true);
    expect(source.endsWith(BUNDLE_CLOSING)).toBe(true);
    await startAndStop();
    // What the image test asks of an image's cache (scripts/test-images.sh).
    const check = [
      `const fs = require('fs'), { compiled } = require(${JSON.stringify(LOADER)});`,
      `const file = ${JSON.stringify(bundle)}, data = fs.readFileSync(file + '.v8cache');`,
      `const script = compiled(file, fs.readFileSync(file, 'latin1'), data.subarray(data.indexOf(10) + 1));`,
      `console.log(script.cachedDataRejected ? 'rejected' : typeof script.runInThisContext());`,
    ].join('\n');
    expect(spawnSync(process.execPath, ['-e', check], { encoding: 'utf8' }).stdout).toBe('function\n');
    // Run by node directly, as a CommonJS module, it is the CLI.
    const direct = spawnSync(process.execPath, [bundle, '--version'], { encoding: 'utf8' });
    expect(direct.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });

  test('a bundle written as a plain module (an older build) still runs through the loader', async () => {
    const source = readFileSync(bundle, 'latin1');
    const opening = source.indexOf('\n') + 1;
    writeFileSync(
      bundle,
      source.slice(0, opening) + source.slice(opening + BUNDLE_OPENING.length, -BUNDLE_CLOSING.length),
      'latin1',
    );
    await startAndStop();
    expect(coversOf(cache)).toBe('json');
    // Compiled the same way the next time, so V8 takes the cache and it is not written again.
    const mtime = statSync(cache).mtimeMs;
    await startAndStop();
    expect(statSync(cache).mtimeMs).toBe(mtime);
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
