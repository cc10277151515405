/**
 * What a new user sees in the first hour, from the built command in a process of its own:
 * stdout carries only what the command prints for people (banner, hints) and logs go to stderr,
 * as JSON with ISO times and level names, one line per request and session with LOG_REQUESTS;
 * --help names every setting; /health says which version has been up for how long.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SETTINGS } from '@racedata/core';
import { CLI_BIN } from '@racedata/test-support/sim-process';
import WebSocket from 'ws';
import { TOKENS } from '@racedata/test-support';

const root = path.resolve(__dirname, '..', '..', '..');
const children: ChildProcess[] = [];

afterEach(async () => {
  await Promise.all(
    children.splice(0).map((child) => {
      if (child.exitCode !== null || child.signalCode !== null) return undefined;
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      return gone;
    }),
  );
});

interface Run {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves once the stream's text matches. */
  waitFor(stream: 'stdout' | 'stderr', pattern: RegExp): Promise<RegExpExecArray>;
  exited: Promise<number | null>;
}

function runCli(args: string[], env: Record<string, string> = {}): Run {
  const child = spawn(process.execPath, [CLI_BIN, ...args], {
    // LOG_FORMAT unset: a pipe is not a terminal, so `auto` must mean JSON.
    env: { ...process.env, LOG_LEVEL: 'info', LOG_FORMAT: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const text = { stdout: '', stderr: '' };
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.stdout?.on('data', (chunk: Buffer) => (text.stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (text.stderr += chunk.toString()));
  const waitFor = (stream: 'stdout' | 'stderr', pattern: RegExp) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const source = stream === 'stdout' ? child.stdout : child.stderr;
      const check = () => {
        const match = pattern.exec(text[stream]);
        if (!match) return;
        source?.off('data', check);
        resolve(match);
      };
      source?.on('data', check);
      check();
      void exited.then((code) =>
        reject(
          new Error(`exited ${code} before ${stream} matched ${pattern}:\n${text.stdout}\n${text.stderr}`),
        ),
      );
    });
  return { child, stdout: () => text.stdout, stderr: () => text.stderr, waitFor, exited };
}

async function startJson(args: string[], env: Record<string, string> = {}): Promise<Run & { base: string }> {
  const run = runCli(['json', '--port', '0', '--host', '127.0.0.1', ...args], env);
  await run.waitFor('stdout', /^see data:/m);
  const port = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(run.stdout())![1];
  return { ...run, base: `http://127.0.0.1:${port}` };
}

function jsonLines(text: string): Array<Record<string, unknown>> {
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const TESTUSER = { authorization: `Bearer ${TOKENS.testuser}` };

describe('racedata-sim in its first hour', () => {
  test('stdout has the banner and hints only; logs are JSON lines on stderr with ISO time and level names', async () => {
    const sim = await startJson(['--auto-replay-interval', '600000']);
    await sim.waitFor('stderr', /interval replay on/);
    for (const line of sim.stdout().split('\n')) expect(line).not.toMatch(/^\s*\{/);
    expect(sim.stdout()).toMatch(/^racedata-sim: JSON simulator listening on /);
    const logs = jsonLines(sim.stderr());
    expect(logs.length).toBeGreaterThan(0);
    for (const entry of logs) {
      expect(entry.time).toMatch(ISO);
      expect(entry.level).toBe('info');
    }
  });

  test('LOG_FORMAT=pretty prints one readable line a log, LOG_FORMAT=json one object', async () => {
    const pretty = await startJson(['--auto-replay-interval', '600000'], { LOG_FORMAT: 'pretty' });
    const line = (await pretty.waitFor('stderr', /^.*interval replay on.*$/m))[0];
    expect(line).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z INFO {2}json: interval replay on /);
    expect(line).toContain('intervalMs=600000');
    const json = await startJson(['--auto-replay-interval', '600000', '--log-format', 'json']);
    await json.waitFor('stderr', /interval replay on/);
    expect(jsonLines(json.stderr())[0]).toMatchObject({ level: 'info', sim: 'json', intervalMs: 600000 });
  });

  test('--log-requests logs each request with status, user and ms, and event-stream sessions with their close code', async () => {
    const sim = await startJson(['--log-requests']);
    const post = await fetch(`${sim.base}/api/message`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ channel: 'RaceDayTrot', date: '2026-05-11', payload: {} }),
    });
    expect(post.status).toBe(201);
    const read = await fetch(`${sim.base}/customerapi/events?lastEventId=0`, { headers: TESTUSER });
    expect(read.status).toBe(200);
    const refused = await fetch(`${sim.base}/customerapi/events?lastEventId=0`, {
      headers: { authorization: 'Bearer nobody' },
    });
    expect(refused.status).toBe(401);
    await sim.waitFor('stderr', /"status":401/);

    const ws = new WebSocket(`${sim.base.replace('http', 'ws')}/customerapi/event-stream`);
    ws.on('open', () => ws.send(TOKENS.alluser));
    await new Promise<void>((resolve) =>
      ws.on('message', (data: Buffer) => {
        if (String(data).includes('Authenticated')) resolve();
      }),
    );
    ws.close(1000);
    await sim.waitFor('stderr', /"msg":"session closed"/);

    const logs = jsonLines(sim.stderr());
    const requests = logs.filter((entry) => entry.msg === 'request');
    expect(requests).toEqual([
      expect.objectContaining({ method: 'POST', path: '/api/message', status: 201, ms: expect.any(Number) }),
      expect.objectContaining({ method: 'GET', path: '/customerapi/events', status: 200, user: 'testuser' }),
      expect.objectContaining({ method: 'GET', path: '/customerapi/events', status: 401 }),
    ]);
    expect(requests[0]).not.toHaveProperty('user');
    expect(requests[2]).not.toHaveProperty('user');
    expect(logs.filter((entry) => entry.transport === 'event-stream')).toEqual([
      expect.objectContaining({ msg: 'session open', user: 'alluser' }),
      expect.objectContaining({ msg: 'session closed', user: 'alluser', code: 1000 }),
    ]);
  });

  test('without --log-requests a request logs nothing; SIGTERM stops with exit code 0', async () => {
    const sim = await startJson([]);
    expect((await fetch(`${sim.base}/health`, { headers: TESTUSER })).status).toBe(200);
    sim.child.kill('SIGTERM');
    // Everything the process logged is in once it has exited.
    expect(await sim.exited).toBe(0);
    expect(sim.stderr()).toContain('"msg":"shutting down"');
    expect(sim.stderr()).not.toContain('"request"');
  });

  test('--log-requests names the legacy user of a listen and of a STOMP session', async () => {
    const run = runCli(['legacy', '--port', '0', '--host', '127.0.0.1', '--log-requests']);
    await run.waitFor('stdout', /^see data:/m);
    const base = `http://127.0.0.1:${/listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(run.stdout())![1]}`;
    await fetch(`${base}/customerapi/channel/id/Durable?payloadKey=k1`, {
      method: 'POST',
      headers: { 'content-type': 'application/xml' },
      body: '<RaceDay date="2026-05-11" trackId="5"/>',
    });
    expect((await fetch(`${base}/customerapi/channels/listen`, { headers: TESTUSER })).status).toBe(200);
    const ws = new WebSocket(`${base.replace('http', 'ws')}/api/v1/channels/connect`, ['v12.stomp'], {
      headers: TESTUSER,
    });
    await new Promise((resolve) => ws.once('open', resolve));
    ws.close(1000);
    await run.waitFor('stderr', /"msg":"session closed"/);
    const logs = jsonLines(run.stderr());
    expect(logs).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: '/customerapi/channels/listen', status: 200, user: 'testuser' }),
        expect.objectContaining({ msg: 'session open', transport: 'stomp', user: 'testuser' }),
        expect.objectContaining({ msg: 'session closed', transport: 'stomp', user: 'testuser', code: 1000 }),
      ]),
    );
  });

  test('/health reports the package version, when it started and how long it has been up', async () => {
    const sim = await startJson([]);
    const version = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string })
      .version;
    const health = (await (await fetch(`${sim.base}/health`)).json()) as Record<string, unknown>;
    expect(health).toMatchObject({ status: 'ok', simulator: 'json', version });
    expect(health.startedAt).toMatch(ISO);
    expect(health.uptimeMs).toEqual(expect.any(Number));
    expect(health.uptimeMs as number).toBeGreaterThanOrEqual(0);
  });

  test.each([[[]], [['json']], [['legacy']], [['all']]])(
    '%j --help names every setting by its environment variable and the exit codes',
    async (command) => {
      const run = runCli([...command, '--help']);
      expect(await run.exited).toBe(0);
      const help = run.stdout();
      const expected = SETTINGS.filter((spec) => !(command[0] === 'all' && spec.key === 'port'));
      for (const spec of expected) expect(help).toMatch(new RegExp(`^ {2}${spec.env}\\b`, 'm'));
      expect(help).toMatch(/^Exit codes:\n {2}0 .*\n {2}1 .*\n {2}2 /m);
    },
  );

  test('usage and configuration errors exit 2, with the reason on stderr', async () => {
    const unknown = runCli(['json', '--no-such-flag']);
    expect(await unknown.exited).toBe(2);
    const bad = runCli(['json', '--port', '0'], { LOG_FORMAT: 'loud' });
    expect(await bad.exited).toBe(2);
    expect(bad.stderr()).toContain('LOG_FORMAT (--log-format)');
    expect(bad.stdout()).toBe('');
  });
});
