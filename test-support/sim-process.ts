/**
 * A simulator run as its own process through the built CLI (packages/cli/bin/racedata-sim.js),
 * for black-box tests that must see what a client sees: real sockets, the real process, nothing
 * in-process to peek at. Needs `npm run build` first, as `npm test` does.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { closeAfterTest } from './index';

export const CLI_BIN = path.resolve(__dirname, '..', 'packages', 'cli', 'bin', 'racedata-sim.js');

export interface SimProcess {
  readonly child: ChildProcess;
  readonly port: number;
  /** http://127.0.0.1:<port> */
  readonly base: string;
  /** ws://127.0.0.1:<port> */
  readonly wsBase: string;
  /** SIGTERM, then SIGKILL if the process is still there after a few seconds. */
  close(): Promise<void>;
}

const START_TIMEOUT_MS = 20_000;

/**
 * Starts `racedata-sim <kind> --port 0 --host 127.0.0.1 ...args` and resolves once its banner
 * names the port; registered for closeAll(), so a failed assertion never leaves it running.
 */
export function startSimProcess(
  kind: 'json' | 'legacy',
  args: readonly string[] = [],
  env: Record<string, string> = {},
): Promise<SimProcess> {
  const child = spawn(process.execPath, [CLI_BIN, kind, '--port', '0', '--host', '127.0.0.1', ...args], {
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  const close = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(killer);
  };
  closeAfterTest({ close });
  let out = '';
  let err = '';
  child.stderr?.on('data', (chunk: Buffer) => (err = (err + chunk.toString()).slice(-4000)));
  return new Promise<SimProcess>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`racedata-sim ${kind} printed no banner within ${START_TIMEOUT_MS} ms: ${out}${err}`));
    }, START_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
      if (!match) return;
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      // Keep draining stdout so a chatty process never blocks on a full pipe.
      child.stdout?.resume();
      const port = Number(match[1]);
      resolve({
        child,
        port,
        base: `http://127.0.0.1:${port}`,
        wsBase: `ws://127.0.0.1:${port}`,
        close,
      });
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`racedata-sim ${kind} exited ${code} before listening: ${out}${err}`));
    });
  });
}
