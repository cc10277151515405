import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { BenchContext } from '../context';
import { stopProcess } from '../peer-tools/peer-run';
import { cliBuilt, cliPath } from '../soak/simulators';
import { trackProcess } from './child-server';
import { httpRequest } from './http-client';

/**
 * The JSON simulator as users run it, for the store measures: `node packages/cli/bin/racedata-sim.js
 * json` in its own process on port 0 (the port read from its start banner), filled over HTTP.
 */
export interface CliJsonSim {
  readonly port: number;
  readonly pid: number;
  /** Two full collections inside the process (only when started with `gcHook`). */
  collectGarbage(): Promise<void>;
  /** The simulator's own view of its heap, from GET /metrics (prom-client's nodejs_* gauges). */
  heap(): Promise<HeapReading>;
  close(): Promise<void>;
}

/** The heap as a whole and without its young generation (prom-client's nodejs_heap_* gauges). */
export interface HeapReading {
  readonly heapUsed: number;
  readonly heapTotal: number;
  readonly oldUsed: number;
  readonly oldTotal: number;
}

export interface CliJsonSimOptions {
  /** EVENT_STORE_MAX: the largest store the measure fills, so nothing is dropped. */
  readonly maxEvents: number;
  /** Runs node with --expose-gc and bench/src/servers/gc-on-signal.cjs preloaded. */
  readonly gcHook?: boolean;
}

export async function startCliJsonSim(ctx: BenchContext, options: CliJsonSimOptions): Promise<CliJsonSim> {
  if (!cliBuilt(ctx.root)) throw new Error('packages/cli is not built: run `npm run build` first');
  const hook = path.join(ctx.root, 'bench', 'src', 'servers', 'gc-on-signal.cjs');
  const nodeArgs = options.gcHook ? ['--expose-gc', '--require', hook] : [];
  const args = [cliPath(ctx.root), 'json', '--port', '0', '--host', '127.0.0.1', '--no-replay'];
  const child: ChildProcess = trackProcess(
    spawn(process.execPath, [...nodeArgs, ...args], {
      cwd: ctx.root,
      env: {
        ...process.env,
        LOG_LEVEL: 'warn',
        EVENT_STORE_MAX: String(Math.max(1, options.maxEvents)),
        // Counted at JSON size + 200 B an event, 1,000,000 start-list events take about 600 MB of
        // budget, past the 256 MiB default; the count alone must decide what is kept.
        EVENT_STORE_MAX_BYTES: String(64 * 1024 ** 3),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  let stderr = '';
  let gcWaiters: Array<() => void> = [];
  child.stderr?.on('data', (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    stderr = (stderr + text).slice(-4000);
    if (text.includes('bench-gc-done')) {
      const waiting = gcWaiters;
      gcWaiters = [];
      for (const resolve of waiting) resolve();
    }
  });
  const port = await bannerPort(child, () => stderr);
  const pid = child.pid as number;
  return {
    port,
    pid,
    collectGarbage: () => {
      if (!options.gcHook) return Promise.reject(new Error('started without the GC hook'));
      const done = new Promise<void>((resolve) => gcWaiters.push(resolve));
      child.kill('SIGUSR2');
      return done;
    },
    heap: async () => {
      const answer = await httpRequest({ port, path: '/metrics' });
      if (answer.status !== 200) throw new Error(`GET /metrics: HTTP ${answer.status}`);
      const text = answer.body.toString('utf8');
      const heapUsed = gauge(text, 'nodejs_heap_size_used_bytes');
      const heapTotal = gauge(text, 'nodejs_heap_size_total_bytes');
      // The young generation is a reserve V8 sizes to the allocation rate (up to 2 x 16 MB
      // semi-spaces), whatever the store holds; what outlives it is the rest of the heap.
      const young = (kind: 'total' | 'used') =>
        gauge(text, `nodejs_heap_space_size_${kind}_bytes{space="new"}`) +
        gauge(text, `nodejs_heap_space_size_${kind}_bytes{space="new_large_object"}`);
      return {
        heapUsed,
        heapTotal,
        oldUsed: heapUsed - young('used'),
        oldTotal: heapTotal - young('total'),
      };
    },
    close: () => stopProcess(child),
  };
}

/** The port the OS handed out, from `... listening on http://127.0.0.1:PORT` on stdout. */
function bannerPort(child: ChildProcess, stderr: () => string, timeoutMs = 30_000): Promise<number> {
  let stdout = '';
  return new Promise((resolve, reject) => {
    const fail = (why: string) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`racedata-sim json ${why}: ${stderr() || stdout.slice(0, 2000)}`));
    };
    const timer = setTimeout(() => fail(`did not start within ${timeoutMs} ms`), timeoutMs);
    const onExit = (code: number | null) => fail(`exited with code ${code} before it listened`);
    child.once('exit', onExit);
    const onData = (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      const match = /listening on http:\/\/[^\s]*:(\d+)/.exec(stdout);
      if (!match) return;
      clearTimeout(timer);
      child.off('exit', onExit);
      child.stdout?.off('data', onData);
      // Keep draining stdout so the simulator never blocks on a full pipe.
      child.stdout?.resume();
      resolve(Number(match[1]));
    };
    child.stdout?.on('data', onData);
  });
}

/** A gauge's value; `name` may carry its labels (`name{label="value"}`) to pick one series. */
export function gauge(metrics: string, name: string): number {
  const labelled = name.includes('{');
  const pattern = labelled ? name.replace(/[{}"]/g, (c) => `\\${c}`) : `${name}(?:\\{[^}]*\\})?`;
  const match = new RegExp(`^${pattern} (\\S+)$`, 'm').exec(metrics);
  if (!match) throw new Error(`GET /metrics has no ${name}`);
  return Number(match[1]);
}
