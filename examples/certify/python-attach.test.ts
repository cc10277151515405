/**
 * certify from another language: the real command with --attach waits for a client it did not
 * start, here the Python reference client (standard library only), started by hand with the
 * variables certify printed. It proves the variables, the timings and the report work for a
 * client certify knows nothing of but its traffic.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { CertifyReport as Report } from 'racedata-sim';

const root = path.resolve(__dirname, '..', '..');
const bin = path.join(root, 'packages', 'cli', 'bin', 'racedata-sim.js');
const client = path.join(__dirname, 'python', 'racedata_client.py');
const hasPython = spawnSync('python3', ['--version']).status === 0;
if (!hasPython && process.env.CI === 'true') throw new Error('python3 is needed on CI for the attach tests');

const children: ChildProcess[] = [];
const dirs: string[] = [];
afterAll(() => {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

interface Attached {
  readonly code: number | null;
  readonly report: Report;
  readonly variables: Record<string, string>;
  readonly stdout: string;
}

/** `racedata-sim certify SUITE --attach --port 0`, then the Python client with the variables it printed. */
async function attachPython(suite: 'events' | 'listen'): Promise<Attached> {
  const dir = mkdtempSync(path.join(tmpdir(), 'certify-python-'));
  dirs.push(dir);
  const file = path.join(dir, 'report.json');
  const cli = spawn(process.execPath, [bin, 'certify', suite, '--attach', '--port', '0', '--report', file], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(cli);
  let stdout = '';
  const exited = new Promise<number | null>((resolve) => cli.once('close', (code) => resolve(code)));
  const printed = new Promise<string>((resolve, reject) => {
    cli.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      // The console line comes after the variables.
      if (/\n {2}console: /.test(stdout)) resolve(stdout);
    });
    void exited.then(() => reject(new Error(`certify exited before printing its variables:\n${stdout}`)));
  });
  const variables = Object.fromEntries(
    [...(await printed).matchAll(/^ {2}export (RACEDATA_\w+)=(\S+)$/gm)].map((m) => [m[1], m[2]]),
  ) as Record<string, string>;
  // Nothing of node's: the variables, and what python3 needs to be found and run.
  const python = spawn('python3', [client], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, LANG: 'C.UTF-8', ...variables },
    stdio: 'ignore',
  });
  children.push(python);
  const code = await exited;
  python.kill('SIGTERM');
  return { code, report: JSON.parse(readFileSync(file, 'utf8')) as Report, variables, stdout };
}

const maybe = hasPython ? describe : describe.skip;

maybe('certify --attach with the Python reference client (no Node on its side)', () => {
  let events: Attached;
  let listen: Attached;
  beforeAll(async () => {
    [events, listen] = await Promise.all([attachPython('events'), attachPython('listen')]);
  }, 110_000);

  it('prints the variables a client needs, the timings included', () => {
    expect(Object.keys(events.variables).sort()).toEqual([
      'RACEDATA_KEY',
      'RACEDATA_LONG_POLL_MS',
      'RACEDATA_PING_INTERVAL_MS',
      'RACEDATA_SECRET',
      'RACEDATA_SUITE',
      'RACEDATA_URL',
      'RACEDATA_WS_URL',
    ]);
    expect(events.variables).toMatchObject({
      RACEDATA_LONG_POLL_MS: '2000',
      RACEDATA_PING_INTERVAL_MS: '1000',
    });
  });

  it.each(['events', 'listen'] as const)('passes every %s check and exits 0', (suite) => {
    const run = suite === 'events' ? events : listen;
    const statuses = Object.fromEntries(run.report.checks.map((c) => [c.id, `${c.status}: ${c.summary}`]));
    expect(statuses).toEqual(
      Object.fromEntries(run.report.checks.map((c) => [c.id, expect.stringMatching(/^pass: /)])),
    );
    expect(run.report).toMatchObject({ suite, command: 'attached', failed: 0 });
    expect(run.report.checks.map((c) => c.id)).toEqual(
      expect.arrayContaining(['gives-up-on-stalled-poll', 'tolerates-unknown', 'survives-restart']),
    );
    expect(run.code).toBe(0);
  });

  it('grades the timings the client took from the variables: a poll given up after the limit it was told', () => {
    for (const run of [events, listen]) {
      const stalled = run.report.checks.find((c) => c.id === 'gives-up-on-stalled-poll');
      // RACEDATA_LONG_POLL_MS=2000: the client's timeout is that plus 2 s.
      expect(stalled?.summary).toMatch(/^gave up on the stalled poll after (39\d\d|4\d\d\d) ms/);
      const unknown = run.report.checks.find((c) => c.id === 'tolerates-unknown');
      expect(unknown?.summary).toMatch(/^kept polling through 4 messages it has never seen/);
    }
  });
});
