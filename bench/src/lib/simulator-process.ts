import { existsSync } from 'node:fs';
import path from 'node:path';
import { startSimProcess } from '../../../test-support/sim-process';
import type { BenchContext } from '../context';
import { startChild, trackProcess, type ChildServer } from './child-server';

/**
 * The one way bench, soak and abuse run start a simulator under test, always in a process of
 * its own so the clients never share its event loop:
 * - startCliSimulator: the built `racedata-sim` command as users run it (test-support's
 *   startSimProcess), for what is measured from outside (HTTP, /proc, GET /metrics);
 * - startProbedSimulator: bench/src/servers/<kind>-sim-server.ts, the factory and its probe,
 *   for measures that need inside access (in-process preload, CPU and heap over IPC, held counts).
 * Both run the simulators of `root`, which a before/after comparison (--before) sets to the
 * other checkout.
 */
export type SimKind = 'json' | 'legacy';

const GC_HOOK = path.join(__dirname, '..', 'servers', 'gc-on-signal.cjs');
/** What gc-on-signal.cjs prints after its collections; not a log line. */
const GC_DONE = 'bench-gc-done';

export function cliBuilt(root: string): boolean {
  return existsSync(path.join(root, 'packages', 'cli', 'dist', 'entry.js'));
}

export interface CliSimulatorOptions {
  /** On top of LOG_LEVEL=warn. */
  readonly env?: Record<string, string>;
  readonly args?: readonly string[];
  /** Node runs with --expose-gc and gc-on-signal.cjs preloaded, so collectGarbage() works. */
  readonly gcHook?: boolean;
  readonly nodeArgs?: readonly string[];
  /** Every line it prints, stdout and stderr alike (the abuse run counts log lines per second). */
  readonly onLine?: (line: string) => void;
  /** Its logs (stderr) to /dev/null, as when measuring what logging costs. */
  readonly discardLogs?: boolean;
}

export type CliSimulator = Awaited<ReturnType<typeof startCliSimulator>>;

/** `racedata-sim <kind> --port 0 --host 127.0.0.1` of `root`, its port read from its banner. */
export async function startCliSimulator(root: string, kind: SimKind, options: CliSimulatorOptions = {}) {
  if (!cliBuilt(root)) throw new Error(`${root}: packages/cli is not built (npm run build)`);
  const gcWaiters: Array<() => void> = [];
  const onLine = (line: string) => {
    if (line !== GC_DONE) options.onLine?.(line);
    else for (const resolve of gcWaiters.splice(0)) resolve();
  };
  const hook = options.gcHook ? ['--expose-gc', '--require', GC_HOOK] : [];
  const sim = await startSimProcess(
    kind,
    options.args ?? [],
    { LOG_LEVEL: 'warn', ...options.env },
    {
      root,
      nodeArgs: [...hook, ...(options.nodeArgs ?? [])],
      discardStderr: options.discardLogs ?? false,
      onSpawn: (child) => {
        trackProcess(child);
        for (const stream of [child.stdout, child.stderr]) stream?.on('data', lineSplitter(onLine));
      },
    },
  );
  return {
    kind,
    port: sim.port,
    pid: sim.pid,
    /** The last 64 KB it printed (warnings, a crash). */
    output: sim.output,
    exited: () => !sim.alive(),
    /** Two full collections inside the process; resolves once they are done. */
    collectGarbage: () => {
      if (!options.gcHook) return Promise.reject(new Error('started without the GC hook'));
      const done = new Promise<void>((resolve) => gcWaiters.push(resolve));
      sim.child.kill('SIGUSR2');
      return done;
    },
    stop: sim.close,
  };
}

/** Calls `onLine` with each complete line of a stream's chunks. */
function lineSplitter(onLine: (line: string) => void): (chunk: Buffer) => void {
  let rest = '';
  return (chunk) => {
    const lines = (rest + chunk.toString('utf8')).split('\n');
    rest = lines.pop() ?? '';
    // A line longer than this is counted once and not kept whole.
    if (rest.length > 65_536) rest = rest.slice(0, 1024);
    for (const line of lines) onLine(line);
  };
}

export interface ProbedSimulatorOptions {
  readonly settings?: Record<string, unknown>;
  /** Extra legacy users (bench-1..N) so one Durable message to `id` fills N queues. */
  readonly extraUsers?: number;
  readonly maxOldSpaceMb?: number;
}

/** The simulator's factory with its probe, in a child process that answers over IPC. */
export function startProbedSimulator(
  ctx: BenchContext,
  kind: SimKind,
  options: ProbedSimulatorOptions = {},
): Promise<ChildServer> {
  const env: Record<string, string> = {
    BENCH_SETTINGS: JSON.stringify(options.settings ?? {}),
    BENCH_EXTRA_USERS: String(options.extraUsers ?? 0),
  };
  // Another checkout's simulators are loaded from its build (servers/server-setup.ts).
  if (ctx.simRoot !== ctx.root) env.BENCH_SIM_ROOT = ctx.simRoot;
  return startChild({
    name: `${kind} simulator`,
    entry: `bench/src/servers/${kind}-sim-server.ts`,
    root: ctx.root,
    env,
    ...(options.maxOldSpaceMb && { maxOldSpaceMb: options.maxOldSpaceMb }),
  });
}
