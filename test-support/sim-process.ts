/**
 * A simulator as users run it: the built `racedata-sim` command in a process of its own, on a
 * free loopback port, talked to over real sockets. Guarantees about clients ("a hang-up loses
 * nothing", "a sandbox's token opens no other") are only tested when the clients are not in the
 * simulator's process: there, the two share one event loop and the races of real sockets do not
 * happen. Test code only; `npm test` builds the CLI first.
 */
import { spawn, type ChildProcess, type ChildProcessByStdio } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { closeAfterTest } from './index';

export const CLI_BIN = path.resolve(__dirname, '..', 'packages', 'cli', 'bin', 'racedata-sim.js');
const START_TIMEOUT_MS = 20_000;

export interface SimProcess {
  readonly child: ChildProcess;
  readonly pid: number;
  readonly port: number;
  /** http://127.0.0.1:<port> */
  readonly base: string;
  /** ws://127.0.0.1:<port> */
  readonly wsBase: string;
  /** The last 64 KB the process wrote to stdout and stderr. */
  output(): string;
  /** False once the process has exited. */
  alive(): boolean;
  /** SIGTERM, then SIGKILL if it lingers past 5 s; idempotent. */
  close(): Promise<void>;
}

/**
 * Starts `racedata-sim <kind> --port 0 --host 127.0.0.1 ...args` (LOG_LEVEL silent unless `env`
 * says otherwise) and resolves with the port its banner names; registered for closeAll(), so a
 * failed assertion never leaves it running.
 */
export async function startSimProcess(
  kind: 'json' | 'legacy',
  args: readonly string[] = [],
  env: Readonly<Record<string, string>> = {},
): Promise<SimProcess> {
  const { child, output, close, ready } = spawnCli(
    [kind, '--port', '0', '--host', '127.0.0.1', ...args],
    env,
  );
  const port = await ready(`racedata-sim ${kind}`, (text) => {
    const match = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(text);
    return match ? Number(match[1]) : undefined;
  });
  return {
    child,
    pid: child.pid as number,
    port,
    base: `http://127.0.0.1:${port}`,
    wsBase: `ws://127.0.0.1:${port}`,
    output,
    alive: () => child.exitCode === null && child.signalCode === null,
    close,
  };
}

/** Both simulators of one `racedata-sim all` process. */
export interface SimPairProcess {
  readonly json: { readonly port: number; readonly base: string; readonly wsBase: string };
  readonly legacy: { readonly port: number; readonly base: string; readonly wsBase: string };
  output(): string;
  close(): Promise<void>;
}

/**
 * Starts `racedata-sim all --json-port 0 --legacy-port 0 --host 127.0.0.1 ...args` (what
 * `npm start` runs) and resolves once both banners name their ports and the hints are out;
 * registered for closeAll().
 */
export async function startSimPairProcess(
  args: readonly string[] = [],
  env: Readonly<Record<string, string>> = {},
): Promise<SimPairProcess> {
  const pairArgs = ['all', '--json-port', '0', '--legacy-port', '0', '--host', '127.0.0.1', ...args];
  const { output, close, ready } = spawnCli(pairArgs, env);
  const ports = await ready('racedata-sim all', (text): [number, number] | undefined => {
    const json = /JSON simulator listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(text);
    const legacy = /legacy XML simulator listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(text);
    if (!json || !legacy || !text.includes('see data:')) return undefined;
    return [Number(json[1]), Number(legacy[1])];
  });
  const side = (port: number) => ({
    port,
    base: `http://127.0.0.1:${port}`,
    wsBase: `ws://127.0.0.1:${port}`,
  });
  return { json: side(ports[0]), legacy: side(ports[1]), output, close };
}

/**
 * `racedata-sim ...cliArgs` (LOG_LEVEL silent unless `env` says otherwise) in a process of its
 * own, registered for closeAll(). `ready` resolves with what `banner` finds in its output once it
 * finds something, and rejects with the output when the process exits first or finds nothing in
 * START_TIMEOUT_MS.
 */
function spawnCli(cliArgs: readonly string[], env: Readonly<Record<string, string>>) {
  const child = spawn(process.execPath, [CLI_BIN, ...cliArgs], {
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  }) as ChildProcessByStdio<null, Readable, Readable>;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => (closing ??= stop(child, exited));
  closeAfterTest({ close });
  let text = '';
  // Kept short and always drained, so a chatty process never blocks on a full pipe.
  const keep = (chunk: Buffer) => (text = (text + chunk.toString()).slice(-65_536));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const ready = <T>(name: string, banner: (text: string) => T | undefined) =>
    new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        void close();
        reject(new Error(`${name} printed no banner in ${START_TIMEOUT_MS} ms: ${text}`));
      }, START_TIMEOUT_MS);
      const onData = () => {
        const found = banner(text);
        if (found === undefined) return;
        clearTimeout(timer);
        child.stdout.off('data', onData);
        resolve(found);
      };
      child.stdout.on('data', onData);
      void exited.then(() => {
        clearTimeout(timer);
        reject(new Error(`${name} exited before listening: ${text}`));
      });
    });
  return { child, output: () => text, close, ready };
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

async function stop(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(killer);
}

export interface RawAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly text: string;
  /** The body parsed as JSON; undefined when it is not JSON. */
  readonly json: Record<string, unknown> | undefined;
}

/**
 * One HTTP request with exactly these headers, Host included (fetch always sends the real one,
 * so a forged Host, as a DNS-rebound page sends it, needs node:http).
 */
export function rawRequest(
  base: string,
  method: string,
  path: string,
  headers: Readonly<Record<string, string>> = {},
  body?: string,
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${path}`, { method, headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        let json: Record<string, unknown> | undefined;
        try {
          json = JSON.parse(text) as Record<string, unknown>;
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
    });
    req.once('error', reject);
    req.end(body);
  });
}
