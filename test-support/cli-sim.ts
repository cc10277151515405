/**
 * A simulator as users run it, for tests that must hold the whole process to a property (it never
 * crashes, never stalls): the built CLI spawned on a free loopback port, the port read from its
 * start banner. Test code only; needs `npm run build` (which `npm test` runs first).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..');
export const CLI_BIN = path.join(ROOT, 'packages', 'cli', 'bin', 'racedata-sim.js');

/** True when the CLI is built; a suite that spawns it skips otherwise. */
export function cliBuilt(): boolean {
  return existsSync(path.join(ROOT, 'packages', 'cli', 'dist', 'entry.js'));
}

export interface CliSim {
  readonly kind: 'json' | 'legacy';
  readonly port: number;
  readonly pid: number;
  /** http://127.0.0.1:<port> */
  readonly base: string;
  /** Everything it printed (stdout and stderr), for a failure message. */
  output(): string;
  alive(): boolean;
  /** SIGTERM, then SIGKILL if it has not exited within two seconds. */
  close(): Promise<void>;
}

export function startCliSim(
  kind: 'json' | 'legacy',
  env: Record<string, string> = {},
  args: string[] = [],
): Promise<CliSim> {
  const child: ChildProcess = spawn(
    process.execPath,
    [CLI_BIN, kind, '--port', '0', '--host', '127.0.0.1', ...args],
    {
      env: { ...process.env, LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let text = '';
  const keep = (chunk: Buffer) => {
    text = (text + chunk.toString('utf8')).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const alive = () => child.exitCode === null && child.signalCode === null;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail('did not listen within 20 s'), 20_000);
    const fail = (why: string) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`racedata-sim ${kind} ${why}: ${text}`));
    };
    const onExit = (code: number | null) => fail(`exited with ${code} before it listened`);
    child.once('exit', onExit);
    const onData = () => {
      const match = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(text);
      if (!match) return;
      clearTimeout(timer);
      child.off('exit', onExit);
      child.stdout?.off('data', onData);
      const port = Number(match[1]);
      resolve({
        kind,
        port,
        pid: child.pid as number,
        base: `http://127.0.0.1:${port}`,
        output: () => text,
        alive,
        close: async () => {
          if (!alive()) return;
          const kill = setTimeout(() => child.kill('SIGKILL'), 2000);
          child.kill('SIGTERM');
          await exited;
          clearTimeout(kill);
        },
      });
    };
    child.stdout?.on('data', onData);
  });
}

/** GET /health on a fresh connection; resolves with its status and how long it took (ms). */
export function healthCheck(port: number, timeoutMs = 2000): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/health', agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`/health did not answer within ${timeoutMs} ms`)));
    req.on('error', reject);
  });
}
