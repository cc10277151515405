import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '..', '..', '..');
const bin = path.join(root, 'packages', 'cli', 'bin', 'racedata-sim.js');

/** Whether the CLI is built (`npm run build`): the process tests drive it, not the sources. */
export const cliBuilt = existsSync(path.join(root, 'packages', 'cli', 'dist', 'main.js'));

export const AUTH = { authorization: 'Bearer dGVzdHVzZXI=' };

export interface SimProcess {
  readonly base: string;
  readonly child: ChildProcess;
  /** What it printed on stdout so far (its log lines). */
  stdout(): string;
  /** Resolves once stdout matches; rejects when the process exits first or after timeoutMs. */
  printed(pattern: RegExp, timeoutMs?: number): Promise<void>;
}

const running: ChildProcess[] = [];

/** Kills what startSim started; call it in afterEach, so a failed test leaves no process behind. */
export function killSims(): void {
  for (const child of running.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

/** `racedata-sim <kind> --port 0` in its own process, with these environment settings. */
export async function startSim(
  kind: 'json' | 'legacy',
  env: Record<string, string> = {},
): Promise<SimProcess> {
  const child = spawn(process.execPath, [bin, kind, '--port', '0', '--host', '127.0.0.1', '--no-replay'], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  running.push(child);
  let text = '';
  const listeners = new Set<() => void>();
  child.stdout?.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
    for (const listener of [...listeners]) listener();
  });
  const printed = (pattern: RegExp, timeoutMs = 10_000) =>
    new Promise<void>((resolve, reject) => {
      const done = (error?: Error) => {
        listeners.delete(check);
        child.off('exit', onExit);
        clearTimeout(timer);
        if (error) reject(error);
        else resolve();
      };
      const check = () => {
        if (pattern.test(text)) done();
      };
      const onExit = (code: number | null) => done(new Error(`exited ${code} before printing ${pattern}`));
      const timer = setTimeout(() => done(new Error(`${pattern} not printed in ${timeoutMs} ms`)), timeoutMs);
      listeners.add(check);
      child.once('exit', onExit);
      check();
    });
  await printed(/listening on http:\/\/127\.0\.0\.1:\d+/);
  const port = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(text)?.[1];
  return { base: `http://127.0.0.1:${port}`, child, stdout: () => text, printed };
}

/** POSTs `count` events to the JSON simulator's store in one NDJSON body. */
export async function seedEvents(base: string, count: number): Promise<void> {
  const line = JSON.stringify({ channel: 'RaceDayTrot', date: '2026-11-22', payload: { horse: 'Åskvigg' } });
  const res = await fetch(`${base}/_sim/events`, { method: 'POST', body: `${line}\n`.repeat(count) });
  if (res.status !== 201) throw new Error(`seeding answered ${res.status}: ${await res.text()}`);
}

/** testuser reads `limit` events after `after`: one delivered journal entry per event. */
export async function readPage(base: string, after: number, limit: number): Promise<number> {
  const res = await fetch(`${base}/customerapi/events?lastEventId=${after}&limit=${limit}`, {
    headers: AUTH,
  });
  const body = (await res.json()) as { data: { numberOfEvents: number } };
  return body.data.numberOfEvents;
}

/** The part of GET /_sim/state these tests look at. */
export interface StateView {
  readonly journal: { readonly lastSeq: number; readonly waiters?: number };
}

/** Polls GET /_sim/state until `test` holds (state with no event of its own); bounded. */
export async function stateUntil(
  base: string,
  test: (state: StateView) => boolean,
  timeoutMs = 5000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const state = (await (await fetch(`${base}/_sim/state`)).json()) as StateView;
    if (test(state)) return;
    if (Date.now() > deadline) throw new Error(`state never matched: ${JSON.stringify(state).slice(0, 300)}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
