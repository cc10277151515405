import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export interface ChildOptions {
  readonly name: string;
  /** A TypeScript entry under bench/src, run through tsx. */
  readonly entry: string;
  readonly root: string;
  readonly env?: Record<string, string>;
  readonly maxOldSpaceMb?: number;
}

export interface ChildServer {
  readonly name: string;
  readonly port: number;
  readonly pid: number;
  call<T = unknown>(cmd: string, args?: Record<string, unknown>, timeoutMs?: number): Promise<T>;
  /** Asks the child to close and exit; kills it if it does not within the grace. */
  close(): Promise<void>;
}

interface Reply {
  id?: number;
  ok?: boolean;
  result?: unknown;
  error?: string;
  ready?: boolean;
  port?: number;
}

const running = new Set<ChildProcess>();

/** Registers a process the harness spawned itself, so the end of the run kills it if still alive. */
export function trackProcess(child: ChildProcess): ChildProcess {
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

/** Kills every child still running (end of run, or the harness is interrupted). */
export function killAllChildren(): void {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
}

export function startChild(options: ChildOptions): Promise<ChildServer> {
  const execArgv = ['--import', 'tsx', '--expose-gc'];
  if (options.maxOldSpaceMb) execArgv.push(`--max-old-space-size=${options.maxOldSpaceMb}`);
  const child = trackProcess(
    fork(path.resolve(options.root, options.entry), [], {
      cwd: options.root,
      execArgv,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    }),
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const pending = new Map<number, (reply: Reply) => void>();
  let nextId = 1;
  child.on('message', (reply: Reply) => {
    if (reply.id !== undefined) pending.get(reply.id)?.(reply);
  });
  void exited.then(() => {
    for (const settle of pending.values()) settle({ ok: false, error: `exited: ${stderr}` });
  });
  const call = <T>(cmd: string, args: Record<string, unknown> = {}, timeoutMs = 600_000) =>
    new Promise<T>((resolve, reject) => {
      const id = nextId++;
      const settle = (reply: Reply) => {
        clearTimeout(timer);
        pending.delete(id);
        if (reply.ok) resolve(reply.result as T);
        else reject(new Error(`${options.name}: ${reply.error ?? 'failed'}`));
      };
      const timer = setTimeout(() => settle({ ok: false, error: `${cmd} timed out` }), timeoutMs);
      pending.set(id, settle);
      child.send({ id, cmd, args });
    });
  const close = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
    if (child.connected) child.send({ id: 0, cmd: 'close', args: {} });
    else child.kill('SIGTERM');
    await exited;
    clearTimeout(kill);
  };
  const startMs = 30_000;
  return new Promise<ChildServer>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${options.name} did not start within ${startMs} ms: ${stderr}`));
    }, startMs);
    const onExit = () => {
      clearTimeout(timer);
      reject(new Error(`${options.name} exited before it was ready: ${stderr}`));
    };
    child.once('exit', onExit);
    const onReady = (reply: Reply) => {
      if (!reply.ready) return;
      clearTimeout(timer);
      child.off('message', onReady);
      child.off('exit', onExit);
      resolve({ name: options.name, port: reply.port as number, pid: child.pid as number, call, close });
    };
    child.on('message', onReady);
  });
}
