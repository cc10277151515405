/**
 * A simulator as users run it: the built `racedata-sim` command in a process of its own, on a
 * free loopback port. Guarantees about clients ("a hang-up loses nothing", "a sandbox's token
 * opens no other") are only tested when the clients are not in the simulator's process: there,
 * the two share one event loop and the races of real sockets do not happen.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

export const CLI_BIN = path.resolve(__dirname, '..', 'packages', 'cli', 'bin', 'racedata-sim.js');

/** True once `npm run build` has written what the command runs. */
export function cliBuilt(): boolean {
  return existsSync(path.resolve(__dirname, '..', 'packages', 'cli', 'dist', 'main.js'));
}

export interface CliSimulator {
  readonly child: ChildProcess;
  readonly pid: number;
  readonly port: number;
  /** http://127.0.0.1:<port> */
  readonly base: string;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** SIGTERM, then SIGKILL if it has not exited within 5 s; resolves with the exit code. */
  close(): Promise<number | null>;
}

export interface CliOptions {
  /** Environment on top of this process's (LOG_LEVEL defaults to silent). */
  env?: Record<string, string>;
  /** Resolves within this many ms or fails with what the process printed. */
  startTimeoutMs?: number;
}

/** Starts `racedata-sim <kind> --port 0 --host 127.0.0.1 ...args` and waits for its banner. */
export async function startCliSimulator(
  kind: 'json' | 'legacy',
  args: string[] = [],
  options: CliOptions = {},
): Promise<CliSimulator> {
  if (!cliBuilt()) throw new Error('racedata-sim is not built: run npm run build first');
  const child = spawn(process.execPath, [CLI_BIN, kind, '--port', '0', '--host', '127.0.0.1', ...args], {
    env: { ...process.env, LOG_LEVEL: 'silent', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`racedata-sim ${kind} printed no banner in time:\n${text}`));
    }, options.startTimeoutMs ?? 20_000);
    const check = () => {
      const match = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(text);
      if (!match) return;
      clearTimeout(timer);
      child.stdout?.off('data', check);
      resolve(Number(match[1]));
    };
    child.stdout?.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`racedata-sim ${kind} exited ${code} before listening:\n${text}`));
    });
  });
  let closing: Promise<number | null> | undefined;
  return {
    child,
    pid: child.pid as number,
    port,
    base: `http://127.0.0.1:${port}`,
    output: () => text,
    close() {
      if (child.exitCode !== null || child.signalCode !== null) return exited;
      closing ??= (() => {
        child.kill('SIGTERM');
        const kill = setTimeout(() => child.kill('SIGKILL'), 5_000);
        return exited.finally(() => clearTimeout(kill));
      })();
      return closing;
    },
  };
}
