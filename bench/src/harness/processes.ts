import { fork, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';

/**
 * The one way bench, soak and abuse run what they measure, always in a process of its own so the
 * clients never share its event loop: a server (the built `racedata-sim` command of a checkout,
 * or a bare baseline in bench/src/servers) read from outside (HTTP, /proc), with a preloaded hook
 * (servers/sim-hook.cjs) for what only the inside can do (full collections, the CPU profiler);
 * and workers of the harness itself (client processes, the /health prober).
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

/** SIGTERM, then SIGKILL past 5 s; resolves once it exited. */
export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => resolve(clearTimeout(kill)));
    child.kill('SIGTERM');
  });
}

const SERVERS = path.join(__dirname, '..', 'servers');
const BANNER = /listening on http:\/\/127\.0\.0\.1:(\d+)/;

export interface ServerOptions {
  /** The script node runs, and its arguments. */
  readonly argv?: readonly string[];
  readonly env?: Record<string, string>;
  /** Node's own options, before the script (--cpu-prof, --max-old-space-size). */
  readonly nodeArgs?: readonly string[];
  /** No hook: the process exactly as users start it (start-up). */
  readonly plain?: boolean;
  /** Every line it prints, stdout and stderr alike (the abuse run counts log lines). */
  readonly onLine?: (line: string) => void;
  /** Its logs (stderr) to /dev/null rather than a pipe the harness drains. */
  readonly discardLogs?: boolean;
}

export interface Server {
  readonly name: string;
  readonly port: number;
  readonly pid: number;
  /** A command of the preloaded hook: `gc` (two full collections), `profile-start`, `profile-stop`. */
  hook<T = unknown>(cmd: string, args?: Record<string, unknown>): Promise<T>;
  /** The last 64 KB it printed. */
  output(): string;
  exited(): boolean;
  /** SIGTERM, then SIGKILL past 5 s. */
  stop(): Promise<void>;
}

interface HookReply {
  readonly hook: number;
  readonly ok: boolean;
  readonly result?: unknown;
  readonly error?: string;
}

/** Starts `node [hook] <argv>` and resolves with the port its banner names. */
export async function startServer(name: string, options: ServerOptions): Promise<Server> {
  const hook = options.plain ? [] : ['--expose-gc', '--require', path.join(SERVERS, 'sim-hook.cjs')];
  const child = trackProcess(
    spawn(process.execPath, [...hook, ...(options.nodeArgs ?? []), ...(options.argv ?? [])], {
      env: { ...process.env, ...options.env },
      stdio: [
        'ignore',
        'pipe',
        options.discardLogs ? 'ignore' : 'pipe',
        ...(options.plain ? [] : ['ipc' as const]),
      ],
    }),
  );
  const stdout = child.stdout as Readable;
  let text = '';
  for (const stream of [stdout, child.stderr]) {
    // Always drained, so a chatty process never blocks on a full pipe.
    stream?.on('data', (chunk: Buffer) => (text = (text + chunk.toString('utf8')).slice(-65_536)));
    if (options.onLine) stream?.on('data', lineSplitter(options.onLine));
  }
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  const pending = new Map<number, (reply: HookReply) => void>();
  let nextId = 1;
  child.on('message', (reply: HookReply) => pending.get(reply.hook)?.(reply));
  child.once('exit', () => {
    for (const settle of pending.values())
      settle({ hook: 0, ok: false, error: `exited: ${text.slice(-2000)}` });
  });
  const stop = () => stopChild(child);
  const port = await new Promise<number>((resolve, reject) => {
    const fail = (why: string) => {
      clearTimeout(timer);
      void stop();
      reject(new Error(`${name} ${why}: ${text.slice(-2000)}`));
    };
    const timer = setTimeout(() => fail('printed no banner within 30 s'), 30_000);
    const onData = () => {
      const match = BANNER.exec(text);
      if (!match) return;
      clearTimeout(timer);
      stdout.off('data', onData);
      resolve(Number(match[1]));
    };
    stdout.on('data', onData);
    child.once('exit', () => fail('exited before listening'));
  });
  const hookCall = <T>(cmd: string, args: Record<string, unknown> = {}) =>
    new Promise<T>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, (reply) => {
        pending.delete(id);
        if (reply.ok) resolve(reply.result as T);
        else reject(new Error(`${name}: ${cmd}: ${reply.error}`));
      });
      child.send({ hook: id, cmd, args });
    });
  return { name, port, pid: child.pid as number, hook: hookCall, output: () => text, exited: gone, stop };
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

export const cliPath = (root: string) => path.join(root, 'packages', 'cli', 'bin', 'racedata-sim.js');
export const cliBuilt = (root: string) => existsSync(path.join(root, 'packages', 'cli', 'dist', 'entry.js'));

export interface SimOptions extends ServerOptions {
  readonly args?: readonly string[];
}

/** `racedata-sim <kind> --port 0 --host 127.0.0.1` of checkout `root` (LOG_LEVEL warn unless `env` says). */
export function startSim(root: string, kind: SimKind, options: SimOptions = {}): Promise<Server> {
  if (!cliBuilt(root)) throw new Error(`${root}: packages/cli is not built (npm run build)`);
  const argv = [cliPath(root), kind, '--port', '0', '--host', '127.0.0.1', ...(options.args ?? [])];
  return startServer(`${kind} simulator`, { ...options, argv, env: { LOG_LEVEL: 'warn', ...options.env } });
}

/** Settings of a simulator under measurement: nothing times out, every client may be one user. */
export const MEASURED = {
  LONG_POLL_TIMEOUT_MS: '600000',
  WS_AUTH_TIMEOUT_MS: '600000',
  WS_PING_INTERVAL_MS: '3600000',
  WS_MAX_SESSIONS_PER_USER: '100000',
};

/** The bare Node baseline (servers/bare-node.cjs): http + ws doing each measure's job with no logic. */
export const startBare = () => startServer('bare Node', { argv: [path.join(SERVERS, 'bare-node.cjs')] });

export interface Worker {
  readonly pid: number;
  call<T = unknown>(cmd: string, args?: unknown, timeoutMs?: number): Promise<T>;
  /** Hears what the worker says unasked (`{ event, ... }`); returns how to stop listening. */
  listen(listener: (event: { readonly event: string } & Record<string, unknown>) => void): () => void;
  /** Asks it to exit; kills it when it does not within 10 s. */
  close(): Promise<void>;
}

/**
 * A process of the harness itself (a TypeScript entry under bench/src, run through tsx) answering
 * commands over IPC (harness/worker.ts); typed arrays and buffers cross as they are.
 */
export function forkWorker(entry: string, env: Record<string, string> = {}): Promise<Worker> {
  const child = trackProcess(
    fork(path.join(__dirname, '..', entry), [], {
      execArgv: ['--import', 'tsx'],
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'advanced',
    }),
  );
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => (stderr = (stderr + c.toString('utf8')).slice(-4000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const pending = new Map<number, (reply: { ok: boolean; result?: unknown; error?: string }) => void>();
  let nextId = 1;
  const listeners = new Set<Parameters<Worker['listen']>[0]>();
  child.on('message', (m: { id?: number; ok: boolean; event?: string }) => {
    if (m.id !== undefined) pending.get(m.id)?.(m);
    else if (m.event !== undefined) for (const listener of listeners) listener(m as { event: string });
  });
  const listen: Worker['listen'] = (listener) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  };
  void exited.then(() => {
    for (const settle of pending.values()) settle({ ok: false, error: `${entry} exited: ${stderr}` });
  });
  const call = <T>(cmd: string, args: unknown = {}, timeoutMs = 600_000) =>
    new Promise<T>((resolve, reject) => {
      const id = nextId++;
      const timer = setTimeout(() => settle({ ok: false, error: `${cmd} timed out` }), timeoutMs);
      const settle = (reply: { ok: boolean; result?: unknown; error?: string }) => {
        clearTimeout(timer);
        pending.delete(id);
        if (reply.ok) resolve(reply.result as T);
        else reject(new Error(`${entry}: ${reply.error ?? 'failed'}`));
      };
      pending.set(id, settle);
      child.send({ id, cmd, args });
    });
  const close = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
    if (child.connected) child.disconnect();
    await exited;
    clearTimeout(kill);
  };
  return new Promise((resolve, reject) => {
    // The worker says it is ready once it listens: a command sent before would be lost.
    const timer = setTimeout(
      () => reject(new Error(`${entry} was not ready within 30 s: ${stderr}`)),
      30_000,
    );
    void exited.then(() => reject(new Error(`${entry} exited before it was ready: ${stderr}`)));
    child.on('message', (m: { ready?: boolean }) => {
      if (!m.ready) return;
      clearTimeout(timer);
      resolve({ pid: child.pid as number, call, listen, close });
    });
  });
}
