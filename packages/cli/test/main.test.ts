import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { TOKENS } from '@racedata/test-support';
import { run } from '../src/main';
import { bannerPort, fakeCli, type FakeCli } from './cli-harness';

const started: FakeCli[] = [];

async function start(argv: string[], env: Record<string, string> = {}): Promise<FakeCli> {
  const cli = fakeCli(env);
  started.push(cli);
  void run(['node', 'racedata-sim', ...argv], cli.ctx);
  await Promise.race([cli.waitForOutput(/listening on/), cli.exited]);
  return cli;
}

afterEach(async () => {
  for (const cli of started.splice(0)) {
    cli.signal();
    await cli.exited;
  }
});

function tempFile(name: string, content: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'racedata-cli-'));
  const file = path.join(dir, name);
  writeFileSync(file, content);
  return file;
}

describe('racedata-sim json --seed', () => {
  const state = async (port: number) =>
    (
      (await (await fetch(`http://127.0.0.1:${port}/_sim/state`)).json()) as {
        store: { events: number; lastEventId: number };
      }
    ).store;

  test('N generates that many events before listening, spread over channels, days and ids', async () => {
    const cli = await start([
      'json',
      '--port',
      '0',
      '--host',
      '127.0.0.1',
      '--log-level',
      'silent',
      '--seed',
      '5000',
    ]);
    const port = bannerPort(cli.stdout(), 'JSON simulator');
    expect(await state(port)).toMatchObject({ events: 5000, lastEventId: 5000 });
    const res = await fetch(
      `http://127.0.0.1:${port}/customerapi/filtered-events?trackId=901&raceNr=2&limit=1000`,
      {
        headers: { authorization: `Bearer ${TOKENS.alluser}` },
      },
    );
    const body = (await res.json()) as {
      data: { events: Array<{ trackId: number; raceNr: number; date: string }> };
    };
    expect(body.data.events.length).toBeGreaterThan(100);
    expect(body.data.events.every((e) => e.trackId === 901 && e.raceNr === 2)).toBe(true);
    expect(new Set(body.data.events.map((e) => e.date)).size).toBeGreaterThan(1);
  });

  test('a file stores its NDJSON lines, all of them', async () => {
    const lines = [1, 2, 3].map((i) =>
      JSON.stringify({ channel: 'RaceDayTrot', date: '2026-03-14', payload: { i } }),
    );
    const file = tempFile('seed.ndjson', `${lines.join('\n')}\n`);
    const cli = await start([
      'json',
      '--port',
      '0',
      '--host',
      '127.0.0.1',
      '--log-level',
      'silent',
      '--seed',
      file,
    ]);
    const port = bannerPort(cli.stdout(), 'JSON simulator');
    expect(await state(port)).toMatchObject({ events: 3, lastEventId: 3 });
  });

  test('a bad line stops the start with one line naming file and line, exit code 2', async () => {
    const file = tempFile(
      'bad.ndjson',
      '{"channel":"RaceDayTrot","date":"2026-03-14","payload":{}}\n{"channel":"TimeToStartTrot","date":"2026-03-14","payload":{}}\n',
    );
    const cli = fakeCli();
    void run(
      ['node', 'racedata-sim', 'json', '--port', '0', '--log-level', 'silent', '--seed', file],
      cli.ctx,
    );
    expect(await cli.exited).toBe(2);
    expect(cli.stderr()).toBe(
      `racedata-sim: --seed ${file}: line 2: channel "TimeToStartTrot" is transient; only durable events can be seeded\n`,
    );
    expect(cli.stdout()).not.toMatch(/listening on/);
  });

  test('a missing file stops the start with exit code 2', async () => {
    const cli = fakeCli();
    void run(
      [
        'node',
        'racedata-sim',
        'json',
        '--port',
        '0',
        '--log-level',
        'silent',
        '--seed',
        '/nonexistent/seed.ndjson',
      ],
      cli.ctx,
    );
    expect(await cli.exited).toBe(2);
    expect(cli.stderr()).toMatch(/^racedata-sim: --seed \/nonexistent\/seed\.ndjson: .*ENOENT/);
  });
});

describe('racedata-sim json', () => {
  test('prints where it listens and every user with key, token and channels', async () => {
    const cli = await start(['json', '--port', '0', '--host', '127.0.0.1', '--log-level', 'silent']);
    const out = cli.stdout();
    expect(out).toMatch(/JSON simulator listening on http:\/\/127\.0\.0\.1:\d+/);
    expect(out).toContain('key testuser  secret testpassword  token dGVzdHVzZXI=');
    expect(out).toContain('key alluser  secret allpassword  token YWxsdXNlcg==');
    expect(out).toContain('RaceDayTrot, StartListTrot, ResultTrot, RaceDayGallop');
    expect(out).toMatch(/all 16 channels/);
    const port = bannerPort(out, 'JSON simulator');
    const health = await fetch(`http://127.0.0.1:${port}/health`);
    expect(await health.json()).toEqual({
      status: 'ok',
      simulator: 'json',
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      startedAt: expect.any(String),
      uptimeMs: expect.any(Number),
    });
  });

  test('SIGTERM answers a held long poll with 204 and exits 0', async () => {
    const cli = await start(['json', '--port', '0', '--host', '127.0.0.1', '--log-level', 'silent']);
    const port = bannerPort(cli.stdout(), 'JSON simulator');
    const held = fetch(`http://127.0.0.1:${port}/customerapi/events?lastEventId=0`, {
      headers: { authorization: `Bearer ${TOKENS.testuser}` },
    });
    // The poll is registered once the server has read it; a health round trip orders us after it.
    await fetch(`http://127.0.0.1:${port}/health`);
    started.splice(started.indexOf(cli), 1);
    cli.signal('SIGTERM');
    expect((await held).status).toBe(204);
    expect(await cli.exited).toBe(0);
  });

  test('a malformed value stops the start with one line naming it and exit code 2', async () => {
    const cli = fakeCli({ LONG_POLL_TIMEOUT_MS: 'soon' });
    void run(['node', 'racedata-sim', 'json', '--port', '0'], cli.ctx);
    expect(await cli.exited).toBe(2);
    const lines = cli.stderr().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/LONG_POLL_TIMEOUT_MS.*"soon"/);
  });

  test('an unknown flag exits 2', async () => {
    const cli = fakeCli();
    void run(['node', 'racedata-sim', 'json', '--no-such-flag'], cli.ctx);
    expect(await cli.exited).toBe(2);
    expect(cli.stderr()).toMatch(/unknown option/);
  });

  test('USERS_FILE and CHANNELS_FILE replace the built-in tables', async () => {
    const channels = tempFile('channels.json', JSON.stringify({ durable: ['Alpha'], transient: ['Beta'] }));
    const users = tempFile(
      'users.json',
      JSON.stringify({
        users: [{ name: 'qa', key: 'qa', secret: 's3cret', token: 'qa-token', channels: '*' }],
      }),
    );
    const cli = await start(['json', '--port', '0', '--host', '127.0.0.1', '--log-level', 'silent'], {
      USERS_FILE: users,
      CHANNELS_FILE: channels,
    });
    expect(cli.stdout()).toContain('key qa  secret s3cret  token qa-token');
    expect(cli.stdout()).not.toContain('testuser');
    const port = bannerPort(cli.stdout(), 'JSON simulator');
    const posted = await fetch(`http://127.0.0.1:${port}/api/message`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ channel: 'Alpha', date: '2026-11-22', payload: {} }),
    });
    expect(posted.status).toBe(201);
  });

  test.each([
    ['not JSON', '{', /not valid JSON/],
    [
      'an unknown channel',
      JSON.stringify({ users: [{ key: 'a', secret: 'b', token: 'c', channels: ['Nope'] }] }),
      /Nope/,
    ],
    ['a missing secret', JSON.stringify({ users: [{ key: 'a', token: 'c', channels: '*' }] }), /secret/],
  ])('a users file with %s stops the start with a clear message', async (_what, content, message) => {
    const file = tempFile('users.json', content);
    const cli = fakeCli({ USERS_FILE: file });
    void run(['node', 'racedata-sim', 'json', '--port', '0'], cli.ctx);
    expect(await cli.exited).toBe(2);
    expect(cli.stderr()).toContain(file);
    expect(cli.stderr()).toMatch(message);
  });

  test('a port already in use is reported, not thrown', async () => {
    const first = await start(['json', '--port', '0', '--host', '127.0.0.1', '--log-level', 'silent']);
    const port = bannerPort(first.stdout(), 'JSON simulator');
    const cli = fakeCli();
    void run(['node', 'racedata-sim', 'json', '--port', String(port), '--host', '127.0.0.1'], cli.ctx);
    expect(await cli.exited).toBe(1);
    expect(cli.stderr()).toMatch(/cannot listen on 127\.0\.0\.1:\d+ \(EADDRINUSE\)/);
  });
});

describe('racedata-sim all', () => {
  test.each([
    [
      ['--json-port', 'x', '--legacy-port', '0'],
      {},
      'JSON_PORT (--json-port): expected a whole number, got "x"',
    ],
    [
      ['--json-port', '0', '--legacy-port', '70000'],
      {},
      'LEGACY_PORT (--legacy-port): expected a number from 0 to 65535, got 70000',
    ],
    [
      ['--legacy-port', '0'],
      { JSON_PORT: 'abc' },
      'JSON_PORT (--json-port): expected a whole number, got "abc"',
    ],
  ])('a bad port %j is named as given, and the start stops with exit code 2', async (args, env, said) => {
    const cli = fakeCli(env);
    void run(['node', 'racedata-sim', 'all', ...args, '--host', '127.0.0.1'], cli.ctx);
    expect(await cli.exited).toBe(2);
    expect(cli.stderr()).toBe(`racedata-sim: ${said}\n`);
  });

  test('runs the legacy and the JSON simulator side by side', async () => {
    const cli = await start([
      'all',
      '--legacy-port',
      '0',
      '--json-port',
      '0',
      '--host',
      '127.0.0.1',
      '--log-level',
      'silent',
    ]);
    await cli.waitForOutput(/JSON simulator listening/);
    const legacy = bannerPort(cli.stdout(), 'legacy XML simulator');
    const json = bannerPort(cli.stdout(), 'JSON simulator');
    expect(await (await fetch(`http://127.0.0.1:${legacy}/health`)).json()).toMatchObject({
      simulator: 'legacy',
    });
    expect(await (await fetch(`http://127.0.0.1:${json}/health`)).json()).toMatchObject({
      simulator: 'json',
    });
    const out = cli.stdout();
    expect(out).toMatch(/legacy XML simulator listening on http:\/\/127\.0\.0\.1:\d+/);
    expect(out).toContain(`ws://127.0.0.1:${legacy}/api/v1/channels/connect`);
    expect(out).toContain('/api/v1/channels/user/topic/publish');
    expect(out).toMatch(
      /default: key testuser {2}secret testpassword {2}token dGVzdHVzZXI=\n {6}channels: all 9 channels: RaceDay/,
    );
  });
});

describe('interval replay from the bundled recordings', () => {
  test('AUTO_REPLAY_MESSAGE_INTERVAL makes /events grow without anyone posting', async () => {
    const cli = await start(['json', '--port', '0', '--host', '127.0.0.1', '--log-level', 'silent'], {
      AUTO_REPLAY_MESSAGE_INTERVAL: '20',
    });
    const port = bannerPort(cli.stdout(), 'JSON simulator');
    const headers = { authorization: `Bearer ${TOKENS.alluser}` };
    let lastEventId = 0;
    const seen: number[] = [];
    // Each long poll returns as soon as the replay stores the next durable event.
    while (seen.length < 3) {
      const res = await fetch(`http://127.0.0.1:${port}/customerapi/events?lastEventId=${lastEventId}`, {
        headers,
      });
      expect(res.status).toBe(200);
      const page = (await res.json()) as { data: { events: Array<{ eventId: number; channel: string }> } };
      for (const event of page.data.events) seen.push(event.eventId);
      lastEventId = seen[seen.length - 1] ?? lastEventId;
    }
    expect(seen.slice(0, 3)).toEqual([1, 2, 3]);
  });

  test('a recordings directory with nothing playable stops the start (exit 2)', async () => {
    const dir = path.dirname(tempFile('broken.jsonl', '{"not": "a recording"}\n'));
    const cli = fakeCli({ AUTO_REPLAY_MESSAGE_INTERVAL: '100', RECORDINGS_DIR: dir });
    void run(['node', 'racedata-sim', 'json', '--port', '0'], cli.ctx);
    expect(await cli.exited).toBe(2);
    expect(cli.stderr()).toMatch(/broken\.jsonl:1/);
  });
});

describe('the web console', () => {
  test('is served with replay off, its post forms sampling the bundled recordings', async () => {
    const cli = await start(['legacy', '--port', '0', '--host', '127.0.0.1', '--log-level', 'silent']);
    const base = `http://127.0.0.1:${bannerPort(cli.stdout(), 'legacy XML simulator')}`;
    const root = await fetch(`${base}/`, { redirect: 'manual' });
    expect(root.headers.get('location')).toBe('./_sim/ui');
    expect((await fetch(`${base}/_sim/ui/console.js`)).status).toBe(200);
    const catalog = (await (await fetch(`${base}/_sim/catalog`)).json()) as {
      channels: Array<{ name: string; sample: { xml: string } | null }>;
    };
    expect(catalog.channels.find((c) => c.name === 'Result')?.sample?.xml).toMatch(/^<\?xml .*<Result /);
    const replay = (await (await fetch(`${base}/_sim/replay`)).json()) as { on: boolean; recorded: number };
    expect(replay.on).toBe(false);
    expect(replay.recorded).toBeGreaterThan(1000);
  });

  test('a replay started first thing, with replay off at start, replays the bundled recordings', async () => {
    // The recordings are only read when first asked for; the start command is the first asker.
    const cli = await start(['json', '--port', '0', '--host', '127.0.0.1', '--log-level', 'silent']);
    const base = `http://127.0.0.1:${bannerPort(cli.stdout(), 'JSON simulator')}`;
    const started = await fetch(`${base}/_sim/replay`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'start', intervalMs: 60_000 }),
    });
    expect(started.status).toBe(200);
    const view = (await started.json()) as { on: boolean; recorded: number };
    expect(view.on).toBe(true);
    expect(view.recorded).toBeGreaterThan(1000);
  });

  test('a broken RECORDINGS_DIR does not stop a start without replay: the catalog has no samples', async () => {
    const dir = path.dirname(tempFile('broken.jsonl', '{"not": "a recording"}\n'));
    const cli = await start(['json', '--port', '0', '--host', '127.0.0.1', '--log-level', 'silent'], {
      RECORDINGS_DIR: dir,
    });
    const base = `http://127.0.0.1:${bannerPort(cli.stdout(), 'JSON simulator')}`;
    const catalog = (await (await fetch(`${base}/_sim/catalog`)).json()) as {
      channels: Array<{ sample: unknown }>;
    };
    expect(catalog.channels.every((c) => c.sample === null)).toBe(true);
  });
});
