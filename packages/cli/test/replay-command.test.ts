import { mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { ManualClock, localDate, silentLogger } from '@racedata/core';
import { waitFor, TOKENS } from '@racedata/test-support';
import { run } from '../src/main';
import { registerReplayCommand, type ReplayCommandDeps } from '../src/replay/replay-command';
import type { FetchFn } from '../src/replay/target-http';
import { bannerPort, fakeCli, type FakeCli } from './cli-harness';

interface Seen {
  url: string;
  body: string;
}

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A stand-in simulator on port 0: /health names `simulator`, posts are recorded and answered 201. */
async function target(simulator: 'legacy' | 'json' | undefined) {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      if (req.url === '/health') return res.end(JSON.stringify({ status: 'ok', simulator }));
      seen.push({ url: req.url!, body });
      res.writeHead(req.url!.includes('Bad') ? 400 : 201).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => {
    // A post cut off by SIGTERM can leave a connection open that close() would wait out.
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

function recordings(files: Record<string, Array<object | string>>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'replay-cmd-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  for (const [rel, lines] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    const text = lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n');
    writeFileSync(path.join(dir, rel), text + '\n');
  }
  return dir;
}

const T0 = Date.UTC(2024, 4, 11, 12, 0, 0);
const legacyLine = (offsetMs: number, n: number, channel = 'TimeToStart') => ({
  at: new Date(T0 + offsetMs).toISOString(),
  delivery: channel === 'Result' ? 'durable' : 'transient',
  channel,
  payloadKey: `k${n}`,
  xml: `<${channel} date="2024-05-11" n="${n}"/>`,
});
const jsonLine = (offsetMs: number, n: number) => ({
  at: new Date(T0 + offsetMs).toISOString(),
  delivery: 'durable',
  channel: 'ResultTrot',
  date: '2024-05-11',
  trackId: 901,
  raceNr: n,
  payload: { n, startTime: '2024-05-11T14:45:00+02:00' },
});

function replay(args: string[], env: Record<string, string> = {}, deps: ReplayCommandDeps = {}): FakeCli {
  const cli = fakeCli(env);
  const program = new Command('racedata-sim').exitOverride();
  registerReplayCommand(program, cli.ctx, { logger: silentLogger(), ...deps });
  program.parseAsync(['node', 'racedata-sim', 'replay', ...args]).catch((err: Error) => {
    cli.ctx.stderr.write(`unexpected: ${err.message}\n`);
    cli.ctx.exit(99);
  });
  return cli;
}

describe('replay: the racedata-sim replay command', () => {
  it('replays legacy recordings for real with their gaps, capped by --max-delay, and exits 0', async () => {
    const t = await target('legacy');
    const dir = recordings({
      'legacy/b.jsonl': [legacyLine(30, 2), legacyLine(3_600_000, 3, 'Result')],
      'legacy/a.jsonl': [legacyLine(0, 1), legacyLine(3_600_020, 4)],
    });
    const started = Date.now();
    const cli = replay(['--target', t.url, '--recordings', dir, '--max-delay', '40']);
    expect(await cli.exited).toBe(0);
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(85);
    expect(elapsed).toBeLessThan(3000);
    expect(t.seen.map((s) => s.url)).toEqual([
      '/customerapi/channel/TimeToStart/NonDurable?payloadKey=k1',
      '/customerapi/channel/TimeToStart/NonDurable?payloadKey=k2',
      '/customerapi/channel/Result/Durable?payloadKey=k3',
      '/customerapi/channel/TimeToStart/NonDurable?payloadKey=k4',
    ]);
    expect(t.seen[2]!.body).toBe('<Result date="2024-05-11" n="3"/>');
    expect(cli.stdout()).toContain(`4 legacy messages to ${t.url}, recorded timing, gaps capped at 40 ms`);
    expect(cli.stdout()).toContain('replay finished: sent 4, failed 0, position 4/4');
  });

  it('keeps the recorded timing on the injected clock', async () => {
    const t = await target('legacy');
    const dir = recordings({
      'legacy/a.jsonl': [
        legacyLine(0, 1),
        legacyLine(5000, 2),
        legacyLine(3_600_000, 3),
        legacyLine(3_600_100, 4),
      ],
    });
    const clock = new ManualClock();
    const t0 = clock.now();
    const posted: number[] = [];
    const spy: FetchFn = (input, init) => {
      if (init?.method === 'POST') posted.push(clock.now() - t0);
      return fetch(input, init);
    };
    const args = ['--target', t.url, '--recordings', dir, '--max-delay', '10000', '--progress-interval', '0'];
    const cli = replay(args, {}, { clock, fetch: spy });
    const next = async (ms: number) => {
      await waitFor(() => clock.pendingTimers === 1);
      clock.advance(ms);
    };
    await next(0);
    expect(posted).toEqual([0]);
    await next(4999);
    expect(posted).toEqual([0]);
    clock.advance(1);
    expect(posted).toEqual([0, 5000]);
    await next(9999);
    expect(posted).toHaveLength(2);
    clock.advance(1);
    await next(100);
    expect(posted).toEqual([0, 5000, 15_000, 15_100]);
    expect(await cli.exited).toBe(0);
    expect(t.seen).toHaveLength(4);
  });

  it('detects a JSON target, posts to /api/message and rebases dates to today', async () => {
    const t = await target('json');
    const dir = recordings({ 'json/a.jsonl': [jsonLine(0, 1), jsonLine(10, 2)] });
    const clock = new ManualClock(Date.UTC(2026, 2, 3, 12));
    const env = {
      REPLAY_TARGET: t.url,
      RECORDINGS_DIR: dir,
      REPLAY_REBASE_DATES: 'true',
      REPLAY_PROGRESS_INTERVAL: '0',
    };
    const cli = replay(['--interval', '10', '--initial-delay', '0', '--no-loop'], env, { clock });
    await waitFor(() => clock.pendingTimers > 0);
    await clock.advanceAsync(5, 5);
    await waitFor(() => t.seen.length === 1);
    await waitFor(() => clock.pendingTimers > 0);
    clock.advance(10);
    expect(await cli.exited).toBe(0);
    const bodies = t.seen.map((s) => JSON.parse(s.body) as { date: string; payload: { startTime: string } });
    const today = localDate(clock.now());
    expect(t.seen.map((s) => s.url)).toEqual(['/api/message', '/api/message']);
    expect(bodies.map((b) => b.date)).toEqual([today, today]);
    expect(bodies[0]!.payload.startTime).toBe(`${today}T14:45:00+02:00`);
  });

  it('exits 1 with a clear line when the target stays unreachable', async () => {
    const dir = recordings({ 'legacy/a.jsonl': [legacyLine(0, 1)] });
    const url = (await target('legacy')).url;
    await cleanups.pop()!();
    // Through main's run(), so the real wiring (system clock, pino on stderr) is exercised too.
    const cli = fakeCli({ REPLAY_TARGET: url, LOG_LEVEL: 'warn' });
    void run(['node', 'racedata-sim', 'replay', '--recordings', dir, '--wait-timeout', '300'], cli.ctx);
    expect(await cli.exited).toBe(1);
    expect(cli.stdout()).toBe(`replay: waiting up to 300 ms for ${url}/health\n`);
    expect(cli.stderr()).toMatch(
      new RegExp(
        `^racedata-sim replay: target ${url} not healthy after waiting \\d+ ms \\(last attempt: .*ECONNREFUSED.*\\)\\n$`,
      ),
    );
  });

  it('exits 2 naming a bad variable, a missing directory or a kind mismatch', async () => {
    const bad = replay(['--target', 'http://127.0.0.1:1'], { MAX_DELAY: 'soon' });
    expect(await bad.exited).toBe(2);
    expect(bad.stderr()).toBe(
      'racedata-sim replay: MAX_DELAY (--max-delay): expected a whole number, got "soon"\n',
    );
    const missing = replay(['--target', 'http://127.0.0.1:1', '--recordings', '/nowhere/at/all']);
    expect(await missing.exited).toBe(2);
    expect(missing.stderr()).toContain('RECORDINGS_DIR (--recordings): /nowhere/at/all does not exist');
    const t = await target('json');
    const dir = recordings({ 'legacy/a.jsonl': [legacyLine(0, 1)] });
    const mismatch = replay(['--target', t.url, '--recordings', dir, '--kind', 'legacy']);
    expect(await mismatch.exited).toBe(2);
    expect(mismatch.stderr()).toContain('is legacy but the target is a json simulator');
    const none = replay(['--target', t.url, '--recordings', dir]);
    expect(await none.exited).toBe(2);
    expect(none.stderr()).toContain('no playable json recording');
  });

  it('reports a broken file by name and line, replays the rest, and skips a rejected message', async () => {
    const t = await target('legacy');
    const dir = recordings({
      'legacy/a.jsonl': [legacyLine(0, 1), legacyLine(1, 2, 'Bad')],
      'legacy/broken.jsonl': [legacyLine(0, 9), '{"at": 1'],
    });
    const cli = replay(['--target', t.url, '--recordings', dir, '--progress-interval', '0']);
    expect(await cli.exited).toBe(0);
    expect(cli.stderr()).toMatch(/recording refused: .*broken\.jsonl:2: not valid JSON/);
    expect(t.seen.map((s) => s.url)).toEqual([
      '/customerapi/channel/TimeToStart/NonDurable?payloadKey=k1',
      '/customerapi/channel/Bad/NonDurable?payloadKey=k2',
    ]);
    expect(cli.stdout()).toContain('replay finished: sent 1, failed 1, position 2/2');
  });

  it('stops cleanly on SIGTERM while looping, leaving no timer behind', async () => {
    const t = await target('legacy');
    const dir = recordings({ 'legacy/a.jsonl': [legacyLine(0, 1), legacyLine(1, 2)] });
    const clock = new ManualClock();
    const args = ['--target', t.url, '--recordings', dir, '--interval', '2', '--progress-interval', '20'];
    const cli = replay(args, {}, { clock });
    // Two timers pending means the progress ticker and the next message: no post is in flight,
    // so the count the server saw cannot move under the assertions below.
    const idle = () => clock.pendingTimers === 2;
    while (t.seen.length < 5) {
      await waitFor(idle);
      clock.advance(2);
    }
    await waitFor(idle);
    cli.signal('SIGTERM');
    expect(await cli.exited).toBe(0);
    expect(cli.stdout()).toMatch(/one message every 2 ms, looping/);
    expect(cli.stdout()).toContain(`replay stopped: sent ${t.seen.length}, failed 0`);
    expect(clock.pendingTimers).toBe(0);
    const sent = t.seen.length;
    clock.advance(1000);
    expect(t.seen).toHaveLength(sent);
  });
});

async function startSimulator(kind: 'json' | 'legacy'): Promise<string> {
  const sim = fakeCli({});
  const argv = ['node', 'racedata-sim', kind, '--port', '0', '--host', '127.0.0.1', '--log-level', 'silent'];
  void run(argv, sim.ctx);
  await Promise.race([sim.waitForOutput(/listening on/), sim.exited]);
  cleanups.push(async () => {
    sim.signal();
    await sim.exited;
  });
  const title = kind === 'json' ? 'JSON simulator' : 'legacy XML simulator';
  return `http://127.0.0.1:${bannerPort(sim.stdout(), title)}`;
}

/** The first lines of a bundled recording, as a recordings directory of their own. */
function bundledPart(kind: 'json' | 'legacy', count: number): { dir: string; lines: string[] } {
  const dir = path.resolve(__dirname, '..', '..', '..', 'recordings', kind);
  const file = path.join(
    dir,
    readdirSync(dir).find((name) => name.endsWith('-trot.jsonl'))!,
  );
  const lines = readFileSync(file, 'utf8').split('\n').slice(0, count);
  return { dir: recordings({ [`${kind}/part.jsonl`]: lines }), lines };
}

describe('replay: driving the real simulators', () => {
  it('fills the JSON simulator /events with the durable messages of the bundled recordings', async () => {
    const url = await startSimulator('json');
    const { dir, lines } = bundledPart('json', 40);
    const durable = lines.filter((l) => l.includes('"delivery":"durable"')).length;
    const cli = replay(['--target', url, '--recordings', dir, '--interval', '1', '--no-loop']);
    expect(await cli.exited).toBe(0);
    expect(cli.stdout()).toContain(`replay finished: sent ${lines.length}, failed 0`);
    const page = await fetch(`${url}/customerapi/events?lastEventId=0`, {
      headers: { authorization: `Bearer ${TOKENS.alluser}` },
    });
    const body = (await page.json()) as {
      data: { numberOfEvents: number; events: Array<{ channel: string }> };
    };
    expect(durable).toBeGreaterThan(5);
    expect(body.data.numberOfEvents).toBe(durable);
    expect(body.data.events[0]!.channel).toBe('RaceDayTrot');
  });

  it('queues the durable legacy documents for the legacy simulator listen endpoint, in order', async () => {
    const url = await startSimulator('legacy');
    const { dir, lines } = bundledPart('legacy', 40);
    const durable = lines
      .map((l) => JSON.parse(l) as { delivery: string; xml: string })
      .filter((l) => l.delivery === 'durable')
      .map((l) => l.xml);
    const cli = replay(['--target', url, '--recordings', dir, '--max-delay', '0']);
    expect(await cli.exited).toBe(0);
    expect(cli.stdout()).toContain(`replay finished: sent ${lines.length}, failed 0`);
    const received: string[] = [];
    for (let i = 0; i < durable.length; i++) {
      const answer = await fetch(`${url}/customerapi/channels/listen`, {
        headers: { authorization: `Bearer ${TOKENS.testuser}` },
      });
      received.push(JSON.parse(await answer.text()) as string);
    }
    expect(received).toEqual(durable);
  });
});
