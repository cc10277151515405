/**
 * A simulator as users run it: the built CLI in a process of its own, on a free loopback port,
 * talked to over real sockets. Test code only; `npm test` builds the CLI first.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { closeAfterTest } from './index';

const BIN = path.resolve(__dirname, '..', 'packages', 'cli', 'bin', 'racedata-sim.js');
const START_TIMEOUT_MS = 15_000;

export interface SimProcess {
  readonly child: ChildProcess;
  readonly port: number;
  /** http://127.0.0.1:<port> */
  readonly base: string;
}

/**
 * Starts `racedata-sim <kind> --port 0 --host 127.0.0.1 ...args` and resolves with the port its
 * banner names; registered for closeAll(), which stops it with SIGTERM (SIGKILL if it lingers).
 */
export async function startSimProcess(
  kind: 'json' | 'legacy',
  args: readonly string[] = [],
  env: Readonly<Record<string, string>> = {},
): Promise<SimProcess> {
  const child = spawn(process.execPath, [BIN, kind, '--port', '0', '--host', '127.0.0.1', ...args], {
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  closeAfterTest({ close: () => stop(child, exited) });
  let out = '';
  let err = '';
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no banner in ${START_TIMEOUT_MS} ms: ${out}${err}`)),
      START_TIMEOUT_MS,
    );
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
      if (!match) return;
      clearTimeout(timer);
      resolve(Number(match[1]));
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`racedata-sim ${kind} exited before listening: ${out}${err}`));
    });
  });
  return { child, port, base: `http://127.0.0.1:${port}` };
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
