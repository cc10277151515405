import { ManualClock } from '@racedata/core';
import { setImmediate as tick } from 'node:timers/promises';
import { TOKENS } from '@racedata/test-support';
import {
  ISO_MS,
  UUID,
  WsClient,
  closeAll,
  connectAuthenticated,
  event,
  get,
  postMessage,
  startSim,
  waitFor,
  type StreamMessage,
  type Started,
} from './helpers';

afterEach(closeAll);

function expectEnvelope(message: StreamMessage): void {
  expect(typeof message.type).toBe('string');
  expect(message.timestamp).toMatch(ISO_MS);
  expect(Math.abs(Date.parse(message.timestamp) - Date.now())).toBeLessThan(10_000);
  expect(message.id).toMatch(UUID);
}

describe('event stream: connecting and authenticating', () => {
  let s: Started;
  beforeEach(async () => {
    s = await startSim();
  });

  it('sends a Connection message on connect', async () => {
    const client = await WsClient.connect(s.wsUrl);
    const hello = await client.next();
    expect(hello.type).toBe('Connection');
    expectEnvelope(hello);
    expect(Object.keys(hello).sort()).toEqual(['id', 'message', 'timestamp', 'type']);
    expect(hello.message).toMatch(/token/i);
  });

  it('states the 10 second deadline with the default settings', async () => {
    const d = await startSim({ wsAuthTimeoutMs: 10_000 });
    const client = await WsClient.connect(d.wsUrl);
    const hello = await client.next();
    expect(hello.type).toBe('Connection');
    expect(hello.message).toContain('10 seconds');
  });

  it.each([
    ['the raw token', TOKENS.testuser],
    ['the raw token with surrounding whitespace', ` ${TOKENS.testuser}\n`],
    ['"Bearer <token>"', `Bearer ${TOKENS.testuser}`],
    ['{"token"}', JSON.stringify({ token: TOKENS.testuser })],
    ['{"token": "Bearer ..."}', JSON.stringify({ token: `Bearer ${TOKENS.testuser}` })],
    ['{"authorization": "Bearer ..."}', JSON.stringify({ authorization: `Bearer ${TOKENS.testuser}` })],
  ])('authenticates with %s', async (_name, first) => {
    const client = await WsClient.connect(s.wsUrl);
    expect((await client.next()).type).toBe('Connection');
    client.send(first);
    const reply = await client.next();
    expect(reply.type).toBe('Authenticated');
    expectEnvelope(reply);
    expect(typeof reply.message).toBe('string');
    expect(Object.keys(reply).sort()).toEqual(['id', 'message', 'timestamp', 'type']);

    // Authenticated for real: it now receives Data of its subscription.
    s.probe.publish(event('TimeToStartTrot', { payload: { ok: true } }));
    expect((await client.next()).data?.payload).toEqual({ ok: true });
  });

  it.each([
    ['an unknown raw token', 'bm9ib2R5'],
    ['an unknown Bearer token', 'Bearer bm9ib2R5'],
    ['an empty message', ''],
    ['only the word Bearer', 'Bearer'],
    ['a token with a space inside', 'dGVz dHVzZXI='],
    ['{"token"} with a number', JSON.stringify({ token: 5 })],
    ['an object without a token', JSON.stringify({ user: 'testuser' })],
    ['the credentials instead of a token', JSON.stringify({ key: 'testuser', secret: 'testpassword' })],
    ['broken JSON', `{"token": "${TOKENS.testuser}`],
  ])('refuses %s with AuthenticationError, then closes with 1008', async (_name, first) => {
    const client = await WsClient.connect(s.wsUrl);
    expect((await client.next()).type).toBe('Connection');
    client.send(first);
    const reply = await client.next();
    expect(reply.type).toBe('AuthenticationError');
    expectEnvelope(reply);
    expect(reply.message).toMatch(/invalid/i);
    expect((await client.closed).code).toBe(1008);
  });

  it('refuses a client that sends no token within the deadline', async () => {
    const started = Date.now();
    const client = await WsClient.connect(s.wsUrl);
    expect((await client.next()).type).toBe('Connection');
    const reply = await client.next();
    expect(reply.type).toBe('AuthenticationError');
    expectEnvelope(reply);
    expect(reply.message).toMatch(/no token/i);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect((await client.closed).code).toBe(1008);
  });

  it('does not time out a client that authenticated in time', async () => {
    const client = await connectAuthenticated(s.wsUrl, TOKENS.testuser);
    // Four pings at 100 ms outlast the 300 ms token deadline.
    for (let i = 0; i < 4; i++) await client.next('Ping');
    expect(client.received.some((m) => m.type === 'AuthenticationError')).toBe(false);
    expect(client.ws.readyState).toBe(client.ws.OPEN);
  });

  it('ignores later client messages once authenticated', async () => {
    const client = await connectAuthenticated(s.wsUrl, TOKENS.testuser);
    client.send('not-a-token');
    client.send(Buffer.from([0, 1, 2, 3]));
    s.probe.publish(event('SplitTimesTrot', { payload: { still: 'here' } }));
    expect((await client.next()).data?.payload).toEqual({ still: 'here' });
  });

  it('a refused client does not disturb an authenticated one', async () => {
    const good = await connectAuthenticated(s.wsUrl, TOKENS.alluser);
    const bad = await WsClient.connect(s.wsUrl);
    await bad.next('Connection');
    bad.send('wrong');
    expect((await bad.next()).type).toBe('AuthenticationError');
    expect((await bad.closed).code).toBe(1008);
    s.probe.publish(event('TimeToStartGallop'));
    expect((await good.next()).type).toBe('Data');
  });
});

describe('event stream: Data', () => {
  let s: Started;
  beforeEach(async () => {
    s = await startSim();
  });

  it('has the shape {type, timestamp, id, data: {channel, date, trackId, raceNr, startNr, payload}}', async () => {
    const client = await connectAuthenticated(s.wsUrl, TOKENS.testuser);
    const res = await postMessage(s.base, {
      channel: 'Last500MetersTrot',
      date: '2026-01-05',
      trackId: 5,
      raceNr: 4,
      startNr: 9,
      payload: { splits: [14.1, 13.9], leader: 9 },
    });
    expect(res.status).toBe(202);
    const data = await client.next();
    expect(data).toEqual({
      type: 'Data',
      timestamp: expect.stringMatching(ISO_MS),
      id: expect.stringMatching(UUID),
      data: {
        channel: 'Last500MetersTrot',
        date: '2026-01-05',
        trackId: 5,
        raceNr: 4,
        startNr: 9,
        payload: { splits: [14.1, 13.9], leader: 9 },
      },
    });
  });

  it('is sent for subscribed transient channels only: alluser gets gallop, the default user does not', async () => {
    const dflt = await connectAuthenticated(s.wsUrl, TOKENS.testuser);
    const all = await connectAuthenticated(s.wsUrl, TOKENS.alluser);
    s.probe.publish(event('TimeToStartGallop', { payload: { n: 1 } }));
    s.probe.publish(event('SplitTimesGallop', { payload: { n: 2 } }));
    s.probe.publish(event('TimeToDefTrot', { payload: { n: 3 } })); // not in the default subscription
    s.probe.publish(event('TimeToStartTrot', { payload: { n: 4 } }));

    for (const n of [1, 2, 3, 4]) expect((await all.next()).data?.payload).toEqual({ n });
    expect((await dflt.next()).data?.payload).toEqual({ n: 4 });
  });

  it('never carries durable messages', async () => {
    const client = await connectAuthenticated(s.wsUrl, TOKENS.alluser);
    s.probe.publish(event('RaceDayTrot', { payload: { durable: true } }));
    s.probe.publish(event('ResultGallop', { payload: { durable: true } }));
    s.probe.publish(event('TimeToStartTrot', { payload: { marker: true } }));
    const next = await client.next();
    expect(next.data).toMatchObject({ channel: 'TimeToStartTrot', payload: { marker: true } });
  });

  it('does not deliver messages sent before authentication', async () => {
    const client = await WsClient.connect(s.wsUrl);
    expect((await client.next()).type).toBe('Connection');
    const before = await postMessage(s.base, {
      channel: 'TimeToStartTrot',
      date: '2026-01-05',
      payload: { n: 1 },
    });
    expect(before.body.data).toEqual({ delivery: 'transient', recipients: 0 });
    await client.authenticate(TOKENS.testuser);
    s.probe.publish(event('TimeToStartTrot', { payload: { n: 2 } }));
    expect((await client.next()).data?.payload).toEqual({ n: 2 });
    expect(client.received.filter((m) => m.type === 'Data')).toHaveLength(1);
  });

  it('replays nothing after a reconnect', async () => {
    const first = await connectAuthenticated(s.wsUrl, TOKENS.testuser);
    s.probe.publish(event('TimeToStartTrot', { payload: { n: 1 } }));
    expect((await first.next()).data?.payload).toEqual({ n: 1 });
    first.ws.close();
    await first.closed;
    const again = await connectAuthenticated(s.wsUrl, TOKENS.testuser);
    s.probe.publish(event('TimeToStartTrot', { payload: { n: 2 } }));
    expect((await again.next()).data?.payload).toEqual({ n: 2 });
    expect(again.received.filter((m) => m.type === 'Data')).toHaveLength(1);
  });

  it('gives every message type, an ISO timestamp and a unique UUID', async () => {
    const client = await connectAuthenticated(s.wsUrl, TOKENS.alluser);
    for (let i = 0; i < 5; i++) s.probe.publish(event('TimeToStartGallop', { payload: { i } }));
    for (let i = 0; i < 5; i++) await client.next('Data');
    await client.next('Ping');
    const types = new Set(client.received.map((m) => m.type));
    expect(types).toEqual(new Set(['Connection', 'Authenticated', 'Data', 'Ping']));
    for (const message of client.received) expectEnvelope(message);
    const ids = client.received.map((m) => m.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('event stream: Ping', () => {
  it('sends a bare Ping every interval once authenticated', async () => {
    const s = await startSim({ wsPingIntervalMs: 100, wsAuthTimeoutMs: 5000 });
    const client = await connectAuthenticated(s.wsUrl, TOKENS.testuser);
    const authenticatedAt = Date.now();
    const arrivals: number[] = [];
    for (let i = 0; i < 3; i++) {
      const ping = await client.next('Ping');
      arrivals.push(Date.now());
      expectEnvelope(ping);
      expect(Object.keys(ping).sort()).toEqual(['id', 'timestamp', 'type']);
    }
    // Roughly one per interval: not a burst, not late by several intervals.
    expect((arrivals[0] as number) - authenticatedAt).toBeGreaterThanOrEqual(60);
    expect((arrivals[2] as number) - (arrivals[0] as number)).toBeGreaterThanOrEqual(150);
    expect((arrivals[2] as number) - authenticatedAt).toBeLessThan(1500);
  });

  it('sends no Ping before authentication', async () => {
    const clock = new ManualClock(Date.now());
    const s = await startSim({ wsPingIntervalMs: 50, wsAuthTimeoutMs: 5000 }, { clock });
    const client = await WsClient.connect(s.wsUrl);
    expect((await client.next()).type).toBe('Connection');
    clock.advance(1000);
    // Messages arrive in order: a Ping sent before authentication would come before Authenticated.
    await client.authenticate(TOKENS.testuser);
    expect(client.received.map((m) => m.type)).toEqual(['Connection', 'Authenticated']);
  });
});

describe('event stream: hostile and slow clients', () => {
  it('answers a binary junk first frame with an error and a close; others are still served', async () => {
    const s = await startSim();
    const junk = await WsClient.connect(s.wsUrl);
    await junk.next('Connection');
    junk.send(Buffer.from([0xff, 0x00, 0xfe, 0x80, 0x7f]));
    expect((await junk.next()).type).toBe('AuthenticationError');
    expect((await junk.closed).code).toBe(1008);

    const good = await connectAuthenticated(s.wsUrl, TOKENS.testuser);
    s.probe.publish(event('TimeToStartTrot'));
    expect((await good.next()).type).toBe('Data');
  });

  it('closes on a huge 100 KB first frame without buffering it; others are still served', async () => {
    const s = await startSim();
    const huge = await WsClient.connect(s.wsUrl);
    await huge.next('Connection');
    huge.send('x'.repeat(100 * 1024));
    const { code } = await huge.closed;
    expect([1008, 1009]).toContain(code);
    expect(huge.received.some((m) => m.type === 'Authenticated')).toBe(false);

    const good = await connectAuthenticated(s.wsUrl, TOKENS.alluser);
    s.probe.publish(event('TimeToStartGallop'));
    expect((await good.next()).type).toBe('Data');
    expect((await get(s.base, '/health')).status).toBe(200);
  });

  it('drops a slow client whose unsent data exceeds wsMaxBufferedBytes and keeps serving the rest', async () => {
    const s = await startSim({ wsMaxBufferedBytes: 1, wsPingIntervalMs: 60_000 });
    const healthy = await connectAuthenticated(s.wsUrl, TOKENS.testuser);
    const slow = await connectAuthenticated(s.wsUrl, TOKENS.alluser);
    expect(s.probe.streamSessions).toBe(2);
    slow.ws.pause();

    // Large gallop messages reach only the slow (all-channels) client, which reads nothing.
    const blob = 'g'.repeat(512 * 1024);
    let published = 0;
    while (s.probe.streamSessions === 2) {
      if (published >= 400) throw new Error('slow client was never dropped');
      s.probe.publish(event('TimeToStartGallop', { payload: { blob } }));
      published++;
      await tick();
    }
    expect(published).toBeGreaterThan(1);

    slow.ws.resume();
    expect((await slow.closed).code).toBe(1006);

    s.probe.publish(event('TimeToStartTrot', { payload: { after: true } }));
    expect((await healthy.next()).data?.payload).toEqual({ after: true });
    const fresh = await connectAuthenticated(s.wsUrl, TOKENS.alluser);
    s.probe.publish(event('TimeToStartGallop', { payload: { small: true } }));
    expect((await fresh.next()).data?.payload).toEqual({ small: true });
    await waitFor(() => s.probe.streamSessions === 2, 'two subscribers again');
  });
});
