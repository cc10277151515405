import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { assertWellFormedXml } from '@racedata/legacy-sim';

// The real command, as users run it (`npm test` builds it first), on the engine's test suites.
const root = path.resolve(__dirname, '..', '..', '..');
const bin = path.join(root, 'packages', 'cli', 'bin', 'racedata-sim.js');
const fixtures = path.join(root, 'packages', 'certify', 'test', 'fixtures');
const definitions = ['--definitions', path.join(fixtures, 'test-suites.cjs')];
const client = (script: string) => ['--', 'node', path.join(fixtures, 'clients', script)];

const children: ChildProcess[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

interface Run {
  readonly child: ChildProcess;
  readonly stdout: () => string;
  readonly stderr: () => string;
  readonly exited: Promise<number | null>;
  /** Resolves with the match once stdout matches. */
  readonly seen: (pattern: RegExp) => Promise<RegExpExecArray>;
}

function certify(args: string[]): Run {
  const child = spawn(process.execPath, [bin, 'certify', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  let err = '';
  const watchers = new Set<() => void>();
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    for (const watch of [...watchers]) watch();
  });
  child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    seen: (pattern) =>
      new Promise((resolve, reject) => {
        const watch = () => {
          const match = pattern.exec(out);
          if (match) {
            watchers.delete(watch);
            resolve(match);
          }
        };
        watchers.add(watch);
        void exited.then(() => reject(new Error(`exited before ${pattern} in:\n${out}\n${err}`)));
        watch();
      }),
  };
}

function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'certify-cli-'));
  dirs.push(dir);
  return dir;
}

describe('racedata-sim certify', () => {
  it('exits 0 when no required check failed, and writes the JSON, JUnit and markdown reports', async () => {
    const dir = tempDir();
    const files = ['--report', 'r.json', '--junit', 'r.xml', '--markdown', 'r.md'].map((a) =>
      a.startsWith('r.') ? path.join(dir, a) : a,
    );
    const run = certify([
      'events',
      ...definitions,
      '--only',
      'sees-event',
      ...files,
      ...client('poller.mjs'),
    ]);
    expect(await run.exited).toBe(0);
    expect(run.stdout()).toMatch(/^certify events: long-poll timeout 2000 ms, ping interval 1000 ms/);
    // The console of the suite's simulator, on the port the client was given.
    const url = /\n {2}client started with RACEDATA_URL=(\S+)\n {2}console: (\S+)\n/.exec(run.stdout());
    expect(url?.[2]).toBe(`${url?.[1]}/_sim/ui`);
    expect(run.stdout()).toMatch(/\n {4}pass +sees-event: read event 1\n/);
    expect(run.stdout()).toMatch(/\nsees-event +pass +read event 1\n/);
    const report = JSON.parse(readFileSync(path.join(dir, 'r.json'), 'utf8')) as Record<string, unknown>;
    expect(Object.keys(report)).toEqual([
      'suite',
      'command',
      'startedAt',
      'durationMs',
      'checks',
      'passed',
      'failed',
    ]);
    expect(report).toMatchObject({
      suite: 'events',
      passed: 1,
      failed: 0,
      checks: [{ id: 'sees-event', status: 'pass' }],
    });
    expect(() => assertWellFormedXml(readFileSync(path.join(dir, 'r.xml'), 'utf8'))).not.toThrow();
    expect(readFileSync(path.join(dir, 'r.md'), 'utf8')).toContain('| `sees-event` | pass | read event 1 |');
  });

  it('exits 1 when a required check failed, and 0 when that failure was expected', async () => {
    const failing = certify(['events', ...definitions, ...client('poller.mjs')]);
    const dir = tempDir();
    const expected = path.join(dir, 'expected.txt');
    writeFileSync(expected, '# known issue\nalways-fails\n');
    const excused = certify([
      'events',
      ...definitions,
      '--expected-failures',
      expected,
      ...client('poller.mjs'),
    ]);
    expect(await failing.exited).toBe(1);
    expect(failing.stdout()).toMatch(/\nalways-fails +fail +fails on purpose\n/);
    expect(await excused.exited).toBe(0);
    expect(excused.stdout()).toMatch(/\nalways-fails +fail \(expected\) +fails on purpose\n/);
  });

  it('exits 1 with the exit code and last stderr lines of a client that ends early', async () => {
    const run = certify(['events', ...definitions, ...client('exits-early.mjs')]);
    expect(await run.exited).toBe(1);
    expect(run.stdout()).toMatch(
      /ended early: client exited with code 3 after \d+ ms; its last stderr lines:\n/,
    );
    expect(run.stdout()).toContain('  fatal: cannot parse configuration\n');
  });

  it('exits 2 for usage errors, saying what is wrong', async () => {
    const missing = path.join(tempDir(), 'missing.txt');
    const cases: Array<[string[], RegExp]> = [
      [
        ['evnts', ...client('poller.mjs')],
        /unknown suite "evnts" \(expected one of: events, stream, listen, stomp, all\)/,
      ],
      [
        ['events', ...definitions, '--only', 'nope', ...client('poller.mjs')],
        /--only: no check "nope" in this run/,
      ],
      [
        ['events', '--expected-failures', missing, ...client('poller.mjs')],
        /--expected-failures .*missing\.txt: ENOENT/,
      ],
      [
        ['events', '--', 'racedata-no-such-client'],
        /client command "racedata-no-such-client" was not found on PATH/,
      ],
      [['events'], /no client command: racedata-sim certify <suite> -- <command>/],
      [['events', '--attach', ...client('poller.mjs')], /--attach waits for a client started by hand/],
      [['all', '--attach', '--port', '0'], /--attach plays one suite at a time, not all/],
      [
        ['events', '--attach', '--port', '0', '--echo', 'stdout'],
        /--echo stdout reads the output of a client certify starts/,
      ],
      [
        ['events', '--only', 'detects-silent-stream', ...client('poller.mjs')],
        /--only: no check "detects-silent-stream" in this run: it is a check of stream, not of events/,
      ],
      [
        ['all', '--only', 'events/detects-silent-session', ...client('poller.mjs')],
        /--only: no check "events\/detects-silent-session" in this run: it is a check of stomp\/detects-silent-session, not of events/,
      ],
      [['events', '--host', '0.0.0.0', ...client('poller.mjs')], /--host is for --attach/],
      [
        ['events', '--timeout', 'soon', ...client('poller.mjs')],
        /--timeout soon: expected a number of seconds/,
      ],
    ];
    const runs = cases.map(([args]) => certify(args));
    for (const [index, run] of runs.entries()) {
      expect(await run.exited).toBe(2);
      expect(run.stderr()).toMatch(cases[index]?.[1] ?? /never/);
    }
  });

  it('on Ctrl-C stops the client, prints the partial report and exits 130', async () => {
    const slow = certify([
      'events',
      '--definitions',
      path.join(fixtures, 'waits.cjs'),
      '--verbose',
      ...client('poller.mjs'),
    ]);
    await slow.seen(/waits-forever \(waits-forever\) \.\.\./);
    const pid = Number(/client stderr\| pid (\d+)/.exec(slow.stderr())?.[1]);
    expect(pid).toBeGreaterThan(0);
    slow.child.kill('SIGINT');
    expect(await slow.exited).toBe(130);
    expect(slow.stdout()).toMatch(
      /\nsees-event +pass +read event 1\nwaits-forever +skip +not graded: interrupted\n/,
    );
    expect(() => process.kill(pid, 0)).toThrow(/ESRCH/);
  });

  it('with --attach serves on the port given and waits for a client started by hand', async () => {
    const run = certify(['events', ...definitions, '--only', 'sees-event', '--attach', '--port', '0']);
    await run.seen(/export RACEDATA_SECRET=\S+\n/);
    const variables = Object.fromEntries(
      [...run.stdout().matchAll(/^ {2}export (RACEDATA_\w+)=(\S+)$/gm)].map((m) => [
        m[1],
        m[2]?.replace(/^'|'$/g, ''),
      ]),
    );
    expect(Object.keys(variables).sort()).toEqual([
      'RACEDATA_KEY',
      'RACEDATA_LONG_POLL_MS',
      'RACEDATA_PING_INTERVAL_MS',
      'RACEDATA_SECRET',
      'RACEDATA_SUITE',
      'RACEDATA_URL',
      'RACEDATA_WS_URL',
    ]);
    // With --attach the console is on the port given, and shows the certification waiting.
    const shown = await run.seen(/\n {2}console: (http:\/\/127\.0\.0\.1:\d+)\/_sim\/ui\n/);
    expect(shown[1]).toBe(variables.RACEDATA_URL);
    const page = await fetch(`${shown[1]}/_sim/ui`);
    expect([page.status, page.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
    const watched = await fetch(`${shown[1]}/_sim/certification`);
    expect(await watched.json()).toMatchObject({
      suite: 'events',
      client: 'attached',
      attached: true,
      phase: 'waiting',
      checks: [{ id: 'sees-event', status: 'pending' }],
    });
    // The same variables for a client in a container, on the address it reached certify by.
    const served = await fetch(`${shown[1]}/_sim/certify/variables`);
    expect(await served.text()).toBe(
      Object.entries(variables)
        .map(([name, value]) => `${name}=${value}\n`)
        .join(''),
    );
    const byHand = spawn(process.execPath, [path.join(fixtures, 'clients', 'poller.mjs')], {
      env: { ...process.env, ...variables },
      stdio: 'ignore',
    });
    children.push(byHand);
    expect(await run.exited).toBe(0);
    expect(run.stdout()).toMatch(/\nsees-event +pass +read event 1\n/);
  });
});
