import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { TOKENS } from '@racedata/test-support';

const root = path.resolve(__dirname, '..', '..', '..');
// The npm bin (it runs the bundle when that is current), the TypeScript build it falls back to,
// and the single-file bundle the images run; `npm test` builds all of them first.
const entries = [
  [
    'npm bin',
    path.join(root, 'packages', 'cli', 'bin', 'racedata-sim.js'),
    path.join(root, 'packages', 'cli', 'dist', 'main.js'),
  ],
  [
    'TypeScript build',
    path.join(root, 'packages', 'cli', 'dist', 'entry.js'),
    path.join(root, 'packages', 'cli', 'dist', 'entry.js'),
  ],
  [
    'image bundle',
    path.join(root, 'packages', 'cli', 'dist', 'racedata-sim.cjs'),
    path.join(root, 'packages', 'cli', 'dist', 'racedata-sim.cjs'),
  ],
].filter(([, , built]) => existsSync(built as string));

const children: ChildProcess[] = [];

// A failed assertion must not leave a simulator process behind to keep jest alive.
afterEach(() => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

function startProcess(bin: string, args: string[], env: Record<string, string> = {}): ChildProcess {
  const child = spawn(process.execPath, [bin, ...args], {
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const seen = { text: '' };
  // Registered before any other listener, so `seen` is current whenever output() checks it.
  child.stdout?.on('data', (chunk: Buffer) => (seen.text += chunk.toString()));
  stdoutOf.set(child, seen);
  children.push(child);
  return child;
}

const stdoutOf = new WeakMap<ChildProcess, { text: string }>();

/** Resolves once everything the child printed so far (or later) matches the pattern. */
function output(child: ChildProcess, pattern: RegExp): Promise<RegExpExecArray> {
  const seen = stdoutOf.get(child) ?? { text: '' };
  return new Promise((resolve, reject) => {
    const check = (): boolean => {
      const match = pattern.exec(seen.text);
      if (match) {
        child.stdout?.off('data', check);
        resolve(match);
      }
      return match !== null;
    };
    if (check()) return;
    child.stdout?.on('data', check);
    child.once('exit', (code) =>
      reject(new Error(`exited ${code} before printing ${pattern}: ${seen.text}`)),
    );
  });
}

function exitCode(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

// `npm test` builds first, so a missing build is a broken run: under CI it fails here rather than
// passing with nothing tested; by hand (jest alone on sources) it skips and says so.
if (entries.length === 0) {
  if (process.env.CI === 'true') {
    test('the command is built', () => {
      throw new Error('packages/cli/dist is missing: run npm run build (npm test does) before these tests');
    });
  } else {
    console.warn('cli-process tests skipped: packages/cli/dist is missing; run npm run build first');
  }
}

(entries.length > 0 ? describe.each(entries) : describe.skip.each([['unbuilt', '', '']]))(
  'the racedata-sim %s',
  (_name, bin) => {
    test('SIGTERM ends the process cleanly with exit code 0', async () => {
      const child = startProcess(bin, ['json', '--port', '0', '--host', '127.0.0.1']);
      const [, port] = await output(child, /listening on http:\/\/127\.0\.0\.1:(\d+)/);
      const held = fetch(`http://127.0.0.1:${port}/customerapi/events?lastEventId=0`, {
        headers: { authorization: `Bearer ${TOKENS.testuser}` },
      });
      await fetch(`http://127.0.0.1:${port}/health`);
      const exited = exitCode(child);
      child.kill('SIGTERM');
      expect((await held).status).toBe(204);
      expect(await exited).toBe(0);
    });

    test('a bad environment value exits 2 with one line on stderr', async () => {
      const child = startProcess(bin, ['legacy'], { PORT: 'abc' });
      let stderr = '';
      child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      expect(await exitCode(child)).toBe(2);
      expect(stderr.trim().split('\n')).toEqual([expect.stringMatching(/^racedata-sim: PORT \(--port\): /)]);
    });

    test('parses request bodies and refuses bad ones the same way', async () => {
      const child = startProcess(bin, [
        'all',
        '--legacy-port',
        '0',
        '--json-port',
        '0',
        '--host',
        '127.0.0.1',
      ]);
      const [, legacyPort] = await output(
        child,
        /legacy XML simulator listening on http:\/\/127\.0\.0\.1:(\d+)/,
      );
      const [, jsonPort] = await output(child, /JSON simulator listening on http:\/\/127\.0\.0\.1:(\d+)/);
      const post = (body: string | Buffer, headers: Record<string, string> = {}) =>
        fetch(`http://127.0.0.1:${jsonPort}/api/message`, { method: 'POST', headers, body });
      const stored = await post(
        JSON.stringify({ channel: 'RaceDayTrot', date: '2026-11-22', payload: { horse: 'Åskvigg' } }),
        {
          'content-type': 'application/json; charset=utf-8',
        },
      );
      expect(stored.status).toBe(201);
      expect(((await stored.json()) as { data: { event: { payload: unknown } } }).data.event.payload).toEqual(
        {
          horse: 'Åskvigg',
        },
      );
      expect((await post('{"channel":', { 'content-type': 'application/json' })).status).toBe(400);
      expect((await post('{}', { 'content-type': 'application/json; charset=klingon' })).status).toBe(415);
      expect((await post(Buffer.alloc(1024 * 1024 + 10, 32))).status).toBe(413);
      const xml = await fetch(`http://127.0.0.1:${legacyPort}/customerapi/channel/id/Durable`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '<xml>Hello, world!</xml>',
      });
      expect(xml.status).toBe(200);
      const listened = await fetch(`http://127.0.0.1:${legacyPort}/customerapi/channels/listen`, {
        headers: { authorization: `Bearer ${TOKENS.testuser}` },
      });
      expect(JSON.parse(await listened.text())).toBe('<xml>Hello, world!</xml>');
      const exited = exitCode(child);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    });
  },
);
