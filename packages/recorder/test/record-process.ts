/**
 * The record command as users run it: the built CLI in a process of its own, against simulator
 * processes over real sockets. Test code only; `npm test` builds the CLI first.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { closeAfterTest, closeAll, eventually, TOKENS } from '@racedata/test-support';
import { CLI_BIN, startSimProcess, type SimProcess } from '@racedata/test-support/sim-process';

/** What the built-in testuser is called and signs in with on both simulators (README, Users). */
export const CREDENTIALS = { key: 'testuser', secret: 'testpassword', token: TOKENS.testuser } as const;

export interface RecordProcess {
  readonly child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code once the process ended. */
  readonly exited: Promise<number | null>;
  /** SIGINT (Ctrl-C) and the exit code. */
  interrupt(): Promise<number | null>;
}

/** Runs `racedata-sim record ...args` with testuser's key and secret in the environment. */
export function startRecord(
  args: readonly string[],
  env: Readonly<Record<string, string>> = {},
): RecordProcess {
  const child = spawn(process.execPath, [CLI_BIN, 'record', ...args], {
    env: {
      ...process.env,
      RACEDATA_KEY: CREDENTIALS.key,
      RACEDATA_SECRET: CREDENTIALS.secret,
      LOG_FORMAT: 'json',
      LOG_LEVEL: 'debug',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const interrupt = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
    return exited;
  };
  closeAfterTest({
    close: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGKILL');
      await exited;
    },
  });
  return { child, stdout: () => out, stderr: () => err, exited, interrupt };
}

export interface SimPair {
  readonly json: SimProcess;
  readonly legacy: SimProcess;
}

export async function startPair(env: Readonly<Record<string, string>> = {}): Promise<SimPair> {
  const [json, legacy] = await Promise.all([
    startSimProcess('json', [], env),
    startSimProcess('legacy', [], env),
  ]);
  return { json, legacy };
}

export function pairArgs(pair: SimPair): string[] {
  return ['--json-url', pair.json.base, '--legacy-url', pair.legacy.base];
}

/** Posts a message to the JSON simulator (POST /api/message); throws unless it was taken. */
export async function postJsonMessage(pair: SimPair, message: Record<string, unknown>): Promise<void> {
  const res = await fetch(`${pair.json.base}/api/message`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(message),
  });
  if (res.status >= 300) throw new Error(`POST /api/message: ${res.status} ${await res.text()}`);
}

/** Injects XML into the legacy simulator on `channel`; throws unless it was taken. */
export async function injectXml(
  pair: SimPair,
  channel: string,
  kind: 'Durable' | 'NonDurable',
  payloadKey: string,
  xml: string,
): Promise<void> {
  const path = `/customerapi/channel/${channel}/${kind}?payloadKey=${encodeURIComponent(payloadKey)}`;
  const res = await fetch(`${pair.legacy.base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/xml' },
    body: xml,
  });
  if (res.status >= 300) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`);
}

/**
 * The record command on the pair, writing to `out` without progress lines, started and connected
 * to all four transports; `extra` adds options (`--from-event-id 0` to take the backlog too).
 */
export async function recordConnected(
  pair: SimPair,
  out: string,
  extra: readonly string[] = [],
): Promise<RecordProcess> {
  const rec = startRecord(['--out', out, ...pairArgs(pair), ...extra, '--progress-interval', '0']);
  await recorderConnected(pair, rec);
  return rec;
}

/** Resolves once the recorder holds a poll on both simulators and both sockets are authenticated. */
export async function recorderConnected(pair: SimPair, rec: RecordProcess): Promise<void> {
  const held = async (sim: SimProcess) => {
    const state = (await (await fetch(`${sim.base}/_sim/state`)).json()) as {
      users: Record<string, { heldPolls: number; sockets: number }>;
    };
    const user = state.users[CREDENTIALS.key];
    return user !== undefined && user.heldPolls >= 1 && user.sockets >= 1;
  };
  await eventually(
    async () => (await held(pair.json)) && (await held(pair.legacy)),
    'the recorder to connect',
    10_000,
  );
  await eventually(
    async () =>
      rec.stderr().includes('event stream authenticated') && rec.stderr().includes('STOMP subscribed'),
    'the recorder to subscribe',
    5_000,
  );
}

export type Line = Record<string, unknown> & { at: string; delivery: string };

/** Every line of every `.jsonl` file of `<dir>/<folder>`, in name order then line order. */
export function readLines(dir: string, folder: 'json' | 'legacy'): Line[] {
  const where = path.join(dir, folder);
  if (!existsSync(where)) return [];
  return readdirSync(where)
    .filter((name) => name.endsWith('.jsonl') && !name.startsWith('.'))
    .sort()
    .flatMap((name) =>
      readFileSync(path.join(where, name), 'utf8')
        .split('\n')
        .filter((text) => text.trim() !== '')
        .map((text) => JSON.parse(text) as Line),
    );
}

/** Every file below `dir`, hidden ones included. */
export function allFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? allFiles(full) : [full];
  });
}

/** No credential, token or authorization header in any byte written below `dir` or in `texts`. */
export function expectNoSecret(dir: string, texts: readonly string[]): void {
  const forbidden = [
    CREDENTIALS.key,
    CREDENTIALS.secret,
    CREDENTIALS.token,
    'authorization',
    'Bearer',
    'Basic ',
  ];
  const sources = [
    ...allFiles(dir).map((file) => ({ where: file, text: readFileSync(file, 'latin1') })),
    ...texts.map((text, i) => ({ where: `output ${i}`, text })),
  ];
  for (const { where, text } of sources) {
    for (const secret of forbidden) {
      if (text.toLowerCase().includes(secret.toLowerCase())) {
        throw new Error(`${where} holds "${secret}"`);
      }
    }
  }
}

/** A line without its arrival time: what must be the same across a record and a replay. */
export function content(line: Line): string {
  const { at: _at, ...rest } = line;
  return JSON.stringify(rest);
}

/**
 * A fresh temporary folder for each test of the calling file, removed (after everything the test
 * opened is closed) when it ends. Returns the path of a name inside it.
 */
export function tempFolderEachTest(prefix: string): (name: string) => string {
  let dir = '';
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  });
  afterEach(async () => {
    await closeAll();
    rmSync(dir, { recursive: true, force: true });
  });
  return (name) => path.join(dir, name);
}
