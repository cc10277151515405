import { fork, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { waitForHealth } from './http';

/**
 * The one way bench, soak and abuse run what they measure, always in a process of its own so the
 * clients never share its event loop: a server (the built `racedata-sim` command of a checkout,
 * or the bare baseline) read from outside (HTTP, /proc), with a preloaded hook
 * (servers/gc-hook.cjs) for what only the inside can do (full collections);
 * and workers of the harness (client processes, the /health prober). Both answer commands over
 * IPC alike: `{ id, cmd, args }` in, `{ id, ok, result | error }` out, `{ event, ... }` unasked.
 */
export type SimKind = 'json' | 'legacy';

const running = new Set<ChildProcess>();

/** Registers a process the harness spawned, so the end of the run kills it if still alive. */
export function trackProcess<T extends ChildProcess>(child: T): T {
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

/** Kills every child still running (end of run, or the harness is interrupted). */
export function killAllChildren(): void {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
}

const gone = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

/** SIGTERM, then SIGKILL past 5 s; resolves once it exited. */
export function stopChild(child: ChildProcess): Promise<void> {
  if (gone(child)) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => resolve(clearTimeout(kill)));
    child.kill('SIGTERM');
  });
}

type Event = { readonly event: string } & Record<string, unknown>;
type Reply = { ok: boolean; result?: unknown; error?: string };

// The harness side of a child's commands: `call` one, or `listen` to what it says unasked;
// `why()` says what the child printed when it is gone.
function commands(child: ChildProcess, why: () => string) {
  const pending = new Map<number, (reply: Reply) => void>();
  const listeners = new Set<(event: Event) => void>();
  let nextId = 1;
  child.on('message', (m: Reply & { id?: number; event?: string }) => {
    if (m.id !== undefined) pending.get(m.id)?.(m);
    else if (m.event !== undefined) for (const listener of listeners) listener(m as Event);
  });
  child.once('exit', () => {
    for (const settle of pending.values()) settle({ ok: false, error: `exited: ${why()}` });
  });
  return {
    listen: (listener: (event: Event) => void) => listeners.add(listener),
    call: <T>(cmd: string, args: unknown = {}, timeoutMs = 600_000) =>
      new Promise<T>((resolve, reject) => {
        const id = nextId++;
        const timer = setTimeout(() => settle({ ok: false, error: `${cmd} timed out` }), timeoutMs);
        const settle = (reply: Reply) => {
          clearTimeout(timer);
          pending.delete(id);
          if (reply.ok) resolve(reply.result as T);
          else reject(new Error(`${cmd}: ${reply.error ?? 'failed'}`));
        };
        pending.set(id, settle);
        child.send({ id, cmd, args });
      }),
  };
}

/** What the child's 'ready' event carries; fails (the child stopped) if it exits first or takes 30 s. */
function ready<T>(child: ChildProcess, what: string, why: () => string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const fail = (reason: string) => {
      clearTimeout(timer);
      void stopChild(child);
      reject(new Error(`${what} ${reason}: ${why()}`));
    };
    const timer = setTimeout(() => fail('was not ready within 30 s'), 30_000);
    child.once('exit', () => fail('exited before it was ready'));
    child.once('ready', (value: T) => resolve((clearTimeout(timer), value)));
  });
}

const SERVERS = path.join(__dirname, '..', 'servers');

export interface ServerOptions {
  /** The CLI's arguments after the kind. */
  readonly args?: readonly string[];
  readonly env?: Record<string, string>;
  /** No hook: the process exactly as users start it (start-up, the soak). */
  readonly plain?: boolean;
  /** Every line it prints, stdout and stderr alike (the abuse run counts log lines). */
  readonly onLine?: (line: string) => void;
}

export type Server = Awaited<ReturnType<typeof startServer>>;

/** Starts `node [hook] <argv>` and resolves with the port its banner (`listening on http://...`) names. */
async function startServer(name: string, argv: readonly string[], options: ServerOptions) {
  const hook = options.plain ? [] : ['--expose-gc', '--require', path.join(SERVERS, 'gc-hook.cjs')];
  const child = trackProcess(
    spawn(process.execPath, [...hook, ...argv], {
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe', ...(options.plain ? [] : ['ipc' as const])],
    }),
  );
  let text = '';
  for (const stream of [child.stdout, child.stderr] as Readable[]) {
    // Always read to the end, so a chatty process never blocks on a full pipe.
    stream.on('data', (chunk: Buffer) => (text = (text + chunk.toString('utf8')).slice(-65_536)));
    if (options.onLine) stream.on('data', lineSplitter(options.onLine));
  }
  const banner = () => {
    const match = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(text);
    if (!match) return;
    child.stdout?.off('data', banner);
    child.emit('ready', Number(match[1]));
  };
  child.stdout?.on('data', banner);
  const why = () => text.slice(-2000);
  const port = await ready<number>(child, name, why);
  const ipc = commands(child, why);
  return {
    ...{ name, port, pid: child.pid as number },
    /** Two full collections inside it (the preloaded servers/gc-hook.cjs); resolves once done. */
    gc: () => ipc.call('gc'),
    /** The last 64 KB it printed. */
    ...{ output: () => text, exited: () => gone(child), stop: () => stopChild(child) },
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

export const cliBuilt = (root: string) => existsSync(path.join(root, 'packages', 'cli', 'dist', 'entry.js'));

let profiled = 0;

/**
 * `racedata-sim <kind> --port 0 --host 127.0.0.1 ...args` of the checkout measured (`simRoot`;
 * LOG_LEVEL warn unless `env` says). On the second run of a bench scenario that missed
 * (`profileDir`), never while it is measured, it writes a CPU profile of its whole life when it
 * exits (--cpu-prof; the CLI exits through process.exit on SIGTERM).
 */
export function ourSim(
  ctx: { simRoot: string; profileDir?: string },
  kind: SimKind,
  options: ServerOptions = {},
  tag = '',
) {
  if (!cliBuilt(ctx.simRoot)) throw new Error(`${ctx.simRoot}: packages/cli is not built (npm run build)`);
  const name = `--cpu-prof-name=${(tag || kind).replace(/\W+/g, '-')}.${++profiled}.cpuprofile`;
  const profile = ctx.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${ctx.profileDir}`, name] : [];
  // A profile names the separate files of the build rather than the bundle the npm bin runs.
  const cli = path.join(
    ctx.simRoot,
    'packages/cli',
    profile.length ? 'dist/entry.js' : 'bin/racedata-sim.js',
  );
  const argv = [...profile, cli, kind, '--port', '0', '--host', '127.0.0.1', ...(options.args ?? [])];
  return startServer(`${kind} simulator`, argv, { ...options, env: { LOG_LEVEL: 'warn', ...options.env } });
}

/**
 * Our simulator started as users start it (no hook, LOG_LEVEL info, `env` on top): the ms from
 * spawning it until GET /health answered, having stopped it again.
 */
export async function timedStart(ctx: { simRoot: string }, kind: SimKind, env: Record<string, string> = {}) {
  const started = performance.now();
  return withServer(ourSim(ctx, kind, { plain: true, env: { LOG_LEVEL: 'info', ...env } }), async (sim) => {
    await waitForHealth(sim.port, () => !sim.exited());
    return performance.now() - started;
  });
}

/** Settings of a simulator under measurement: nothing times out, every client may be one user. */
export const MEASURED = {
  ...{ LONG_POLL_TIMEOUT_MS: '600000', WS_AUTH_TIMEOUT_MS: '600000' },
  ...{ WS_PING_INTERVAL_MS: '3600000', WS_MAX_SESSIONS_PER_USER: '100000' },
};

/** The bare Node baseline (servers/bare-node.cjs): http + ws doing each measure's job with no logic. */
export const startBare = () => startServer('bare Node', [path.join(SERVERS, 'bare-node.cjs')], {});

export type Worker = Awaited<ReturnType<typeof forkWorker>>;

/** A process of the harness itself: a TypeScript entry under bench/src, run through tsx (clients/client-worker.ts). */
export async function forkWorker(entry: string) {
  const child = trackProcess(
    // Typed arrays and buffers cross as they are (serialization: advanced).
    fork(path.join(__dirname, '..', entry), [], {
      ...{ execArgv: ['--import', 'tsx'], stdio: ['ignore', 'ignore', 'pipe', 'ipc'] },
      serialization: 'advanced',
    }),
  );
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => (stderr = (stderr + c.toString('utf8')).slice(-4000)));
  const close = async () => {
    if (child.connected) child.disconnect();
    await stopChild(child);
  };
  const worker = { ...commands(child, () => stderr), pid: child.pid as number, close };
  // It says it is ready once it listens: a command sent before would be lost.
  worker.listen((e) => e.event === 'ready' && child.emit('ready'));
  await ready(child, entry, () => stderr);
  return worker;
}

/** `use` on a server once it started; it is stopped after, whatever happened. */
export async function withServer<T>(starting: Promise<Server>, use: (server: Server) => Promise<T>) {
  const server = await starting;
  try {
    return await use(server);
  } finally {
    await server.stop();
  }
}

// What a process used, read from /proc (Linux) from the outside, as `top` would: the servers
// under test need no hook of ours for it, and every side is read the same way.

/** User + system CPU time of the process so far (all its threads), in ms; 10 ms resolution (USER_HZ 100). */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) is in parentheses and may hold spaces: utime and stime are the
  // 12th and 13th fields after it.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  if (!Number.isFinite(ticks)) throw new Error(`/proc/${pid}/stat: cannot read utime/stime`);
  return ticks * 10;
}

/** VmRSS of a process in KiB, from /proc (Linux); undefined when it cannot be read. */
export function rssKb(pid: number): number | undefined {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** Resident set size (VmRSS) of the process, in bytes. */
export function rssBytes(pid: number): number {
  const kb = rssKb(pid);
  if (kb === undefined) throw new Error(`/proc/${pid}/status: no VmRSS`);
  return kb * 1024;
}

/** Runs `run`, charging it with the CPU time process `pid` used meanwhile. */
export async function chargedTo<T>(pid: number, run: () => Promise<T>) {
  const before = cpuMs(pid);
  const result = await run();
  return { result, cpuMs: cpuMs(pid) - before };
}

/**
 * Milliseconds on CLOCK_MONOTONIC, which every process of the machine reads alike: a post stamped
 * in the harness and its arrival stamped in a client process subtract to the latency.
 */
export const monoMs = (): number => Number(process.hrtime.bigint()) / 1e6;

/** Throws when this process may open fewer than `needed` files (Linux; elsewhere it cannot tell). */
export function requireOpenFiles(needed: number): void {
  const limit = /^Max open files\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'utf8'))?.[1];
  const raise = 'raise it (ulimit -n 8192)';
  if (Number(limit) < needed)
    throw new Error(`open-file limit ${limit} is below the ${needed} this run needs: ${raise}`);
}
