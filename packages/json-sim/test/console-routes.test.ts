import { ManualClock, type RecordedJsonMessage } from '@racedata/core';
import { SseClient } from '../../../test-support/sse';
import { closeAll, connectAuthenticated, event, postMessage, startSim } from './helpers';
import { closeAfterTest, TOKENS } from '@racedata/test-support';

afterEach(closeAll);

const ASSETS = { js: 'console.log("console")', css: 'body{}' };

function recorded(
  i: number,
  channel: string,
  delivery: 'durable' | 'transient',
  raceNr?: number,
): RecordedJsonMessage {
  return {
    kind: 'json',
    at: Date.UTC(2024, 4, 11, 12) + i * 1000,
    delivery,
    source: `t:${i}`,
    message: {
      channel,
      date: '2024-05-11',
      trackId: 901,
      ...(raceNr && { raceNr }),
      payload: { at: '2024-05-11T14:45:00+02:00', i },
    },
  };
}

const RECORDINGS = [
  recorded(0, 'RaceDayTrot', 'durable'),
  recorded(1, 'TimeToStartTrot', 'transient', 1),
  recorded(2, 'TimeToStartTrot', 'transient', 2),
];

const json = async (res: Response) => ({
  status: res.status,
  body: (await res.json()) as Record<string, unknown>,
});
const post = (base: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(base + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

function openStream(url: string, headers: Record<string, string> = {}): Promise<SseClient> {
  return SseClient.open(url, headers).then((client) => closeAfterTest(client));
}

describe('console page and redirect', () => {
  test('GET / redirects a browser to the console, which is served from the given assets', async () => {
    const s = await startSim({}, { consoleAssets: ASSETS });
    const root = await fetch(`${s.base}/`, { redirect: 'manual' });
    expect(root.status).toBe(302);
    expect(root.headers.get('location')).toBe('./_sim/ui');
    const page = await fetch(`${s.base}/_sim/ui`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toMatch(/default-src 'self'/);
    const html = await page.text();
    expect(html).toContain('data-simulator="json"');
    expect(html).toContain('src="ui/console.js"');
    expect(await (await fetch(`${s.base}/_sim/ui/console.js`)).text()).toBe(ASSETS.js);
    const css = await fetch(`${s.base}/_sim/ui/console.css`);
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);
    expect((await fetch(`${s.base}/_sim/ui/`, { redirect: 'manual' })).headers.get('location')).toBe('../ui');
  });

  test('without built assets the page is a 404 that says why', async () => {
    const s = await startSim();
    const page = await json(await fetch(`${s.base}/_sim/ui`));
    expect(page.status).toBe(404);
    expect(page.body.message).toMatch(/not built/);
  });

  test('CONTROL_API=off: no console, no redirect, no stream', async () => {
    const s = await startSim({ controlApi: 'off' }, { consoleAssets: ASSETS });
    expect((await fetch(`${s.base}/`, { redirect: 'manual' })).status).toBe(404);
    expect((await fetch(`${s.base}/_sim/ui`)).status).toBe(404);
    expect((await fetch(`${s.base}/_sim/stream`)).status).toBe(404);
    expect((await fetch(`${s.base}/_sim/catalog`)).status).toBe(404);
  });

  test('CONTROL_TOKEN: the page and stream take ?token= or the cookie; other routes only the header', async () => {
    const s = await startSim({ controlToken: 'sekret' }, { consoleAssets: ASSETS });
    expect((await fetch(`${s.base}/_sim/ui`)).status).toBe(401);
    expect((await fetch(`${s.base}/_sim/ui?token=wrong`)).status).toBe(401);
    const page = await fetch(`${s.base}/_sim/ui?token=sekret`);
    expect(page.status).toBe(200);
    const cookie = page.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^racedata_sim_control=sekret; Path=\/; HttpOnly; SameSite=Strict/);
    const cookieHeader = { cookie: cookie.split(';')[0]! };
    expect((await fetch(`${s.base}/_sim/ui/console.js`, { headers: cookieHeader })).status).toBe(200);
    const stream = await openStream(`${s.base}/_sim/stream?token=sekret`);
    expect(stream.response.status).toBe(200);
    const denied = await fetch(`${s.base}/_sim/stream`);
    expect(denied.status).toBe(401);
    expect((await fetch(`${s.base}/_sim/catalog?token=sekret`)).status).toBe(401);
    expect((await fetch(`${s.base}/_sim/catalog`, { headers: cookieHeader })).status).toBe(401);
    expect(
      (await fetch(`${s.base}/_sim/catalog`, { headers: { authorization: 'Bearer sekret' } })).status,
    ).toBe(200);
  });
});

describe('GET /_sim/stream', () => {
  test('sends recent entries, then each new one as it happens, and the state when it changes', async () => {
    const s = await startSim({}, { consoleAssets: ASSETS });
    await postMessage(s.base, event('RaceDayTrot'));
    const stream = await openStream(`${s.base}/_sim/stream`);
    expect(stream.response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const first = await stream.next((e) => e.event === 'entry');
    expect(first.id).toBe('1');
    expect(JSON.parse(first.data)).toMatchObject({
      seq: 1,
      kind: 'received',
      channel: 'RaceDayTrot',
      durable: true,
      eventId: 1,
    });
    const state = JSON.parse((await stream.next((e) => e.event === 'state')).data) as Record<string, unknown>;
    expect(state).toMatchObject({ simulator: 'json', replay: { on: false, recorded: 0 }, faults: [] });

    const ws = await connectAuthenticated(s.wsUrl, TOKENS.alluser);
    closeAfterTest({ close: () => ws.terminate() });
    await postMessage(s.base, event('TimeToStartTrot'));
    const delivered = await stream.next(
      (e) => e.event === 'entry' && JSON.parse(e.data).kind === 'delivered',
    );
    expect(JSON.parse(delivered.data)).toMatchObject({
      kind: 'delivered',
      user: 'alluser',
      transport: 'event-stream',
      channel: 'TimeToStartTrot',
      status: 101,
    });
    expect(JSON.parse(delivered.data).time).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(JSON.parse(delivered.data).at).toBeUndefined();
  });

  test('resumes after Last-Event-ID', async () => {
    const s = await startSim();
    for (let i = 0; i < 3; i++) await postMessage(s.base, event('RaceDayTrot'));
    const stream = await openStream(`${s.base}/_sim/stream`, { 'last-event-id': '2' });
    await stream.next((e) => e.event === 'state');
    expect(stream.entries().map((e) => e.seq)).toEqual([3]);
  });

  test('a client that goes away is forgotten', async () => {
    const s = await startSim();
    const a = await openStream(`${s.base}/_sim/stream`);
    const b = await openStream(`${s.base}/_sim/stream`);
    await a.next((e) => e.event === 'state');
    await b.next((e) => e.event === 'state');
    a.close();
    await postMessage(s.base, event('RaceDayTrot'));
    await b.next((e) => e.event === 'entry');
    b.close();
    // The simulator closes promptly: no stream, listener or timer was left behind.
    await s.sim.close();
  });
});

describe('GET /_sim/messages/{seq}', () => {
  test('gives the payload of a received message; 404 for other entries and unknown seqs; 400 for junk', async () => {
    const s = await startSim();
    await postMessage(s.base, event('RaceDayTrot', { payload: { hello: 'värld' } }));
    const ok = await json(await fetch(`${s.base}/_sim/messages/1`));
    expect(ok.status).toBe(200);
    expect(ok.body.entry).toMatchObject({ seq: 1, kind: 'received', eventId: 1 });
    expect(JSON.parse(ok.body.payload as string)).toMatchObject({
      eventId: 1,
      channel: 'RaceDayTrot',
      payload: { hello: 'värld' },
    });
    const missing = await json(await fetch(`${s.base}/_sim/messages/99`));
    expect(missing.status).toBe(404);
    expect(missing.body.message).toMatch(/no payload kept for seq 99/);
    for (const bad of ['0', 'abc', '1.5', '-1', '99999999999999999999']) {
      const res = await json(await fetch(`${s.base}/_sim/messages/${bad}`));
      expect([bad, res.status, res.body.message]).toEqual([
        bad,
        400,
        'message seq must be a positive integer',
      ]);
    }
  });
});

describe('GET /_sim/catalog and /_sim/users', () => {
  test('lists every channel with its kind and a recorded sample rebased to today', async () => {
    const clock = new ManualClock(Date.UTC(2026, 2, 3, 12));
    const s = await startSim({}, { recordings: RECORDINGS, clock });
    const { status, body } = await json(await fetch(`${s.base}/_sim/catalog`));
    expect(status).toBe(200);
    const channels = body.channels as Array<{ name: string; kind: string; sample: unknown }>;
    expect(channels).toHaveLength(16);
    expect(channels.find((c) => c.name === 'RaceDayTrot')).toEqual({
      name: 'RaceDayTrot',
      kind: 'durable',
      sample: {
        message: {
          channel: 'RaceDayTrot',
          date: '2026-03-03',
          trackId: 901,
          payload: { at: '2026-03-03T14:45:00+02:00', i: 0 },
        },
      },
    });
    expect(channels.find((c) => c.name === 'TimeToStartTrot')?.kind).toBe('transient');
    expect(channels.find((c) => c.name === 'ResultGallop')?.sample).toBeNull();
  });

  test('users with their fixed tokens and channels', async () => {
    const s = await startSim();
    const { body } = await json(await fetch(`${s.base}/_sim/users`));
    const users = body.users as Array<{ key: string; token: string; channels: string[] }>;
    expect(users.map((u) => [u.key, u.token])).toEqual([
      ['testuser', TOKENS.testuser],
      ['alluser', TOKENS.alluser],
    ]);
    expect(users[0]!.channels).toContain('RaceDayTrot');
  });
});

describe('/_sim/replay', () => {
  test('starts, pauses, resumes, changes speed and jumps to the next race', async () => {
    const clock = new ManualClock();
    const s = await startSim({}, { recordings: RECORDINGS, clock });
    expect((await json(await fetch(`${s.base}/_sim/replay`))).body).toMatchObject({ recorded: 3, on: false });
    const started = await json(await post(s.base, '/_sim/replay', { action: 'start', intervalMs: 100 }));
    expect(started).toMatchObject({
      status: 200,
      body: { on: true, paused: false, mode: 'interval', intervalMs: 100 },
    });
    clock.advance(100);
    expect((await json(await post(s.base, '/_sim/replay', { action: 'pause' }))).body).toMatchObject({
      paused: true,
      sent: 1,
    });
    clock.advance(1000);
    expect(
      (await json(await post(s.base, '/_sim/replay', { action: 'speed', maxDelayMs: 50 }))).body,
    ).toMatchObject({
      mode: 'timed',
      maxDelayMs: 50,
      sent: 1,
    });
    expect((await json(await post(s.base, '/_sim/replay', { action: 'resume' }))).body).toMatchObject({
      paused: false,
    });
    // Before any race went live, the next race is the first one.
    const first = await json(await post(s.base, '/_sim/replay', { action: 'next-race' }));
    expect(first.body).toMatchObject({ position: 1, nextRace: '2024-05-11 track 901 race 1' });
    clock.advance(0);
    const next = await json(await post(s.base, '/_sim/replay', { action: 'next-race' }));
    expect(next.body).toMatchObject({ position: 2, nextRace: '2024-05-11 track 901 race 2' });
    const state = await json(await fetch(`${s.base}/_sim/state`));
    expect(state.body.replay).toMatchObject({ on: true, mode: 'timed' });
  });

  test('bad input is a 400 naming the problem, and changes nothing', async () => {
    const s = await startSim({}, { recordings: RECORDINGS });
    const cases: Array<[unknown, RegExp]> = [
      ['not json', /not valid JSON/],
      [[], /must be a JSON object/],
      [{}, /"action" must be one of start, pause, resume, next-race, speed/],
      [{ action: 'fly' }, /"action" must be one of/],
      [{ action: 'start', intervalMs: 0 }, /"intervalMs" must be an integer from 1/],
      [{ action: 'start', intervalMs: 10, maxDelayMs: 10 }, /not both/],
      [{ action: 'start', maxDelayMs: -1 }, /"maxDelayMs" must be an integer from 0/],
      [{ action: 'speed' }, /needs "intervalMs" or "maxDelayMs"/],
      [{ action: 'pause', intervalMs: 5 }, /takes no speed/],
      [{ action: 'start', speed: 2 }, /unknown replay option "speed"/],
    ];
    for (const [body, message] of cases) {
      const res = await json(await post(s.base, '/_sim/replay', body));
      expect([body, res.status, res.body.code]).toEqual([
        body,
        400,
        expect.stringMatching(/VALIDATION_FAILED|MALFORMED_JSON/),
      ]);
      expect(res.body.message).toMatch(message);
    }
    expect((await json(await fetch(`${s.base}/_sim/replay`))).body).toMatchObject({ on: false, sent: 0 });
  });

  test('a command that does not fit the state is a 409; without recordings start is a 409', async () => {
    const s = await startSim({}, { recordings: RECORDINGS });
    const paused = await json(await post(s.base, '/_sim/replay', { action: 'pause' }));
    expect(paused).toMatchObject({
      status: 409,
      body: { code: 'REPLAY_STATE', message: 'the replay is not running' },
    });
    const empty = await startSim();
    const start = await json(await post(empty.base, '/_sim/replay', { action: 'start' }));
    expect(start.status).toBe(409);
    expect(start.body.message).toMatch(/no recordings/);
  });
});
