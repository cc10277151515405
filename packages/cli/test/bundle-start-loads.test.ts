/**
 * The bundle loads worker_threads, zlib and os only when something uses them (scripts/bundle.mjs,
 * LOAD_TIME_READS and LAZY_BUILTINS): a start that never compresses, runs a worker nor logs a
 * host name does not pay for loading them, and a gzip request body still works, loading zlib then. Nor does a start
 * that logs nothing build process.stderr (packages/cli/src/log-output.ts), nor does it build
 * process.stdout to print its banner (packages/cli/src/stdout-print.ts), nor does its first
 * answer load perf_hooks, which the `performance` global's first use does (requests are timed
 * with core's monotonicMs instead), nor node:module, which pino's transports need (LOAD_TIME_READS)
 * and the npm bin's loader takes from its own module.
 */
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { bundleCopyPerTest } from './bundle-copy';

const DEFERRED = ['worker_threads', 'zlib', 'os', 'perf_hooks', 'module', 'stderr', 'stdout'];
const STREAMS = new Set(['stderr', 'stdout']);
const copy = bundleCopyPerTest('racedata-bundle-loads-');

interface Run {
  port: number;
  /** Stops the simulator and answers which of DEFERRED it had loaded by then. */
  stop(): Promise<string[]>;
}

async function start(kind: 'json' | 'legacy'): Promise<Run> {
  // At exit the process says which builtins it loaded (Node's own list of them), and which of
  // process.stdout and process.stderr, which Node builds on first use, anything had asked for
  // when it listened.
  const prelude = [
    `const fs = require('node:fs');`,
    `const asked = new Set();`,
    `for (const name of ['stdout', 'stderr']) {`,
    `  const own = Object.getOwnPropertyDescriptor(process, name);`,
    `  Object.defineProperty(process, name, { configurable: true, get() { asked.add(name); return own.get.call(process); } });`,
    `}`,
    // Node's own sockets ask for stderr when they close, so what counts is what had been asked
    // for by the time the banner says the simulator listens: its write of its own to fd 1. A
    // banner printed through process.stdout instead never gets here, and then all that was
    // asked for by the exit counts, stdout with it.
    `let byBanner;`,
    `const writeSync = fs.writeSync;`,
    `fs.writeSync = function (fd, ...rest) { if (fd === 1) byBanner ??= [...asked]; return writeSync.call(this, fd, ...rest); };`,
    `process.on('exit', () => writeSync(2, 'LOADED ' + JSON.stringify([...process.moduleLoadList, ...(byBanner ?? asked)]) + '\\n'));`,
  ];
  const child = copy.run([kind, '--port', '0', '--host', '127.0.0.1'], prelude);
  let out = '';
  let err = '';
  child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const port = await new Promise<number>((resolve, reject) => {
    const deadline = setTimeout(() => reject(new Error(`no banner within 20 s: ${out} ${err}`)), 20_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
      if (match) {
        clearTimeout(deadline);
        resolve(Number(match[1]));
      }
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code} before listening: ${out} ${err}`)));
  });
  return {
    port,
    async stop() {
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      const list = /^LOADED (.*)$/m.exec(err)?.[1];
      expect(list).toBeDefined();
      const loaded = new Set(JSON.parse(list as string) as string[]);
      return DEFERRED.filter((name) => loaded.has(STREAMS.has(name) ? name : `NativeModule ${name}`));
    },
  };
}

test.each(['json', 'legacy'] as const)(
  'a %s start and its first answer load neither worker_threads, zlib, os, perf_hooks nor node:module, nor build stdout or stderr before it listens',
  async (kind) => {
    const run = await start(kind);
    expect((await fetch(`http://127.0.0.1:${run.port}/health`)).status).toBe(200);
    expect(await run.stop()).toEqual([]);
  },
);

test('a gzip request body is still taken, loading zlib when it comes', async () => {
  const run = await start('json');
  const message = { channel: 'RaceDayTrot', date: '2026-06-06', trackId: 5, raceNr: 1, payload: { n: 1 } };
  const res = await fetch(`http://127.0.0.1:${run.port}/api/message`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    body: gzipSync(JSON.stringify(message)),
  });
  expect(res.status).toBeLessThan(300);
  const events = await fetch(`http://127.0.0.1:${run.port}/_sim/state`);
  expect(((await events.json()) as { store: { events: number } }).store.events).toBe(1);
  expect(await run.stop()).toEqual(['zlib']);
});

test('the bundle holds one copy of mime-types for express, type-is and accepts', () => {
  // Each builds its lookup tables when loaded (scripts/bundle.mjs, oneCopy). Every module of the
  // bundle is named by its path in a comment before its function (scripts/bundle-wrappers.mjs).
  const source = readFileSync(copy.bundle, 'latin1');
  const copies = source.match(/__commonJS\(\/\*node_modules\/(?:[^*]+\/)?mime-types\/index\.js\*\//g) ?? [];
  expect(copies).toHaveLength(1);
});
