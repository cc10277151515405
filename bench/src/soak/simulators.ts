import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { trackProcess } from '../lib/child-server';
import { stopProcess } from '../peer-tools/peer-run';

/** A simulator as a user runs it: the built CLI in its own process, on loopback. */
export interface RunningSimulator {
  readonly kind: 'json' | 'legacy';
  readonly port: number;
  readonly pid: number;
  /** The last lines it wrote to stderr (warnings, a crash). */
  stderrTail(): string;
  exited(): boolean;
  stop(): Promise<void>;
}

export function cliPath(root: string): string {
  return path.join(root, 'packages', 'cli', 'bin', 'racedata-sim.js');
}

export function cliBuilt(root: string): boolean {
  return existsSync(path.join(root, 'packages', 'cli', 'dist', 'entry.js'));
}

/**
 * `node packages/cli/bin/racedata-sim.js <kind> --port 0 --host 127.0.0.1`; the port the OS
 * handed out is read from the start banner, so no other process can take it first.
 */
export function startSimulator(
  root: string,
  kind: 'json' | 'legacy',
  env: Record<string, string>,
  timeoutMs = 30_000,
  /** Every line it prints, stdout and stderr alike (the abuse run counts log lines per second). */
  onLine?: (line: string) => void,
): Promise<RunningSimulator> {
  if (!cliBuilt(root)) throw new Error('packages/cli is not built: run `npm run build` first');
  const child: ChildProcess = trackProcess(
    spawn(process.execPath, [cliPath(root), kind, '--port', '0', '--host', '127.0.0.1'], {
      cwd: root,
      env: { ...process.env, LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  let stdout = '';
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-4000);
  });
  if (onLine) {
    for (const stream of [child.stdout, child.stderr]) stream?.on('data', lineSplitter(onLine));
  }
  return new Promise((resolve, reject) => {
    const fail = (why: string) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${kind} simulator ${why}: ${stderr || stdout.slice(0, 2000)}`));
    };
    const timer = setTimeout(() => fail(`did not start within ${timeoutMs} ms`), timeoutMs);
    child.once('exit', (code) => fail(`exited with code ${code} before it listened`));
    const onData = (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      const match = /listening on http:\/\/[^\s]*:(\d+)/.exec(stdout);
      if (!match) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      child.stdout?.off('data', onData);
      // Keep draining stdout so a chatty simulator never blocks on a full pipe.
      child.stdout?.resume();
      resolve({
        kind,
        port: Number(match[1]),
        pid: child.pid as number,
        stderrTail: () => stderr,
        exited: () => child.exitCode !== null || child.signalCode !== null,
        stop: () => stopProcess(child),
      });
    };
    child.stdout?.on('data', onData);
  });
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

/** VmRSS of a process in KiB, from /proc (Linux); undefined when it cannot be read. */
export function rssKb(pid: number): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** The soft limit on open files of this process (Linux), or undefined elsewhere. */
export function openFilesLimit(): number | undefined {
  try {
    const limits = readFileSync('/proc/self/limits', 'utf8');
    const match = /^Max open files\s+(\d+|unlimited)/m.exec(limits);
    if (!match) return undefined;
    return match[1] === 'unlimited' ? Number.POSITIVE_INFINITY : Number(match[1]);
  } catch {
    return undefined;
  }
}
