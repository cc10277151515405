import http from 'node:http';
import { TOKENS } from '@racedata/test-support';
import {
  EVENTS_PATH,
  ISO_MS,
  MESSAGE_PATH,
  WsClient,
  closeAll,
  connectAuthenticated,
  get,
  postMessage,
  postRaw,
  startSim,
  waitFor,
  type Started,
} from './helpers';

let s: Started;

beforeEach(async () => {
  s = await startSim();
});

afterEach(closeAll);

const durable = {
  channel: 'RaceDayTrot',
  date: '2026-01-05',
  trackId: 5,
  raceNr: 3,
  startNr: 7,
  payload: { horse: 'Elitloppet', odds: [1.5, 2] },
};

describe('POST /api/message: durable channels', () => {
  it('stores the event and answers 201 with delivery "durable" and the event', async () => {
    const before = Date.now();
    const res = await postMessage(s.base, durable);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      status: 'success',
      data: {
        delivery: 'durable',
        event: { ...durable, eventId: 1, created_at: expect.stringMatching(ISO_MS) },
      },
    });
    const data = res.body.data as { event: { created_at: string } };
    const created = Date.parse(data.event.created_at);
    expect(created).toBeGreaterThanOrEqual(before - 5);
    expect(created).toBeLessThanOrEqual(Date.now() + 5);

    const read = await get(s.base, `${EVENTS_PATH}?lastEventId=0`, TOKENS.testuser);
    expect(read.body.data?.events).toEqual([data.event]);
  });

  it('omits optional fields that were not sent and gives ascending eventIds', async () => {
    const first = await postMessage(s.base, { channel: 'ResultGallop', date: '2026-03-01', payload: {} });
    const second = await postMessage(s.base, {
      channel: 'ResultGallop',
      date: '2026-03-01',
      trackId: null,
      payload: { a: 1 },
    });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(first.body.data).toEqual({
      delivery: 'durable',
      event: {
        channel: 'ResultGallop',
        date: '2026-03-01',
        payload: {},
        eventId: 1,
        created_at: expect.stringMatching(ISO_MS),
      },
    });
    expect(second.body.data).toMatchObject({ event: { eventId: 2 } });
    expect(second.body.data).not.toHaveProperty('event.trackId');
  });

  it('makes a durable event visible only to subscribers', async () => {
    await postMessage(s.base, { channel: 'ScratchingsGallop', date: '2026-01-05', payload: {} });
    const all = await get(s.base, `${EVENTS_PATH}?lastEventId=0`, TOKENS.alluser);
    expect(all.body.data?.events.map((e) => e.channel)).toEqual(['ScratchingsGallop']);
    const dflt = await get(s.base, `/customerapi/filtered-events`, TOKENS.testuser);
    expect(dflt.status).toBe(204);
  });
});

describe('POST /api/message: transient channels', () => {
  const transient = { channel: 'TimeToStartTrot', date: '2026-01-05', trackId: 5, payload: { seconds: 60 } };

  it('answers 202 with recipients 0 when nobody is connected, and stores nothing', async () => {
    const res = await postMessage(s.base, transient);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ status: 'success', data: { delivery: 'transient', recipients: 0 } });
    expect(s.probe.store.size).toBe(0);
  });

  it('counts authenticated subscribers only', async () => {
    const a = await connectAuthenticated(s.wsUrl, TOKENS.testuser);
    const b = await connectAuthenticated(s.wsUrl, TOKENS.alluser);
    const c = await connectAuthenticated(s.wsUrl, `Bearer ${TOKENS.alluser}`);
    const unauthenticated = await WsClient.connect(s.wsUrl);
    expect((await unauthenticated.next()).type).toBe('Connection');

    const trot = await postMessage(s.base, transient);
    expect(trot.status).toBe(202);
    expect(trot.body.data).toEqual({ delivery: 'transient', recipients: 3 });

    // TimeToStartGallop is not in the default subscription.
    const gallop = await postMessage(s.base, { ...transient, channel: 'TimeToStartGallop' });
    expect(gallop.body.data).toEqual({ delivery: 'transient', recipients: 2 });

    for (const client of [a, b, c]) {
      expect((await client.next('Data')).data?.channel).toBe('TimeToStartTrot');
    }
    expect((await b.next('Data')).data?.channel).toBe('TimeToStartGallop');
    expect((await c.next('Data')).data?.channel).toBe('TimeToStartGallop');
    expect(s.probe.store.size).toBe(0);
  });

  it('stops counting a client once it disconnects', async () => {
    const a = await connectAuthenticated(s.wsUrl, TOKENS.alluser);
    await connectAuthenticated(s.wsUrl, TOKENS.alluser);
    expect((await postMessage(s.base, transient)).body.data).toEqual({
      delivery: 'transient',
      recipients: 2,
    });
    a.ws.close();
    await a.closed;
    await waitFor(() => s.probe.streamSessions === 1, 'the server to drop the subscriber');
    expect((await postMessage(s.base, transient)).body.data).toEqual({
      delivery: 'transient',
      recipients: 1,
    });
  });
});

describe('POST /api/message: invalid messages are refused whole', () => {
  async function expectRefused(raw: string, status: number, mention?: string): Promise<void> {
    const res = await postRaw<{ status: string; message: string }>(s.base, MESSAGE_PATH, raw);
    expect(res.status).toBe(status);
    expect(res.body.status).toBe('fail');
    expect(typeof res.body.message).toBe('string');
    if (mention !== undefined) expect(res.body.message).toContain(mention);
    expect(s.probe.store.size).toBe(0);
  }

  const valid = { channel: 'RaceDayTrot', date: '2026-01-05', payload: { a: 1 } };
  const cases: Array<[string, unknown, string | undefined]> = [
    ['an array body', [valid], undefined],
    ['a string body', 'RaceDayTrot', undefined],
    ['a number body', 42, undefined],
    ['a null body', null, undefined],
    ['no channel', { date: '2026-01-05', payload: {} }, 'channel'],
    ['an empty channel', { ...valid, channel: '' }, 'channel'],
    ['a non-string channel', { ...valid, channel: 7 }, 'channel'],
    ['no date', { channel: 'RaceDayTrot', payload: {} }, 'date'],
    ['a date that does not exist', { ...valid, date: '2026-02-30' }, 'date'],
    ['a date without padding', { ...valid, date: '2026-1-5' }, 'date'],
    ['a date in another format', { ...valid, date: '05/01/2026' }, 'date'],
    ['a date-time', { ...valid, date: '2026-01-05T10:00:00Z' }, 'date'],
    ['a numeric date', { ...valid, date: 20260105 }, 'date'],
    ['a fractional trackId', { ...valid, trackId: 1.5 }, 'trackId'],
    ['a string trackId', { ...valid, trackId: '5' }, 'trackId'],
    ['a negative raceNr', { ...valid, raceNr: -1 }, 'raceNr'],
    ['a boolean startNr', { ...valid, startNr: true }, 'startNr'],
    ['no payload', { channel: 'RaceDayTrot', date: '2026-01-05' }, 'payload'],
    ['an array payload', { ...valid, payload: [1, 2] }, 'payload'],
    ['a string payload', { ...valid, payload: '<xml/>' }, 'payload'],
    ['a null payload', { ...valid, payload: null }, 'payload'],
  ];

  it.each(cases)('400 for %s', async (_name, body, mention) => {
    await expectRefused(JSON.stringify(body), 400, mention);
  });

  it('400 for malformed JSON', async () => {
    await expectRefused('{"channel":"RaceDayTrot","date":', 400);
  });

  it('400 for an empty body', async () => {
    await expectRefused('', 400);
  });

  it('400 for an unknown channel, listing the known channels', async () => {
    const res = await postRaw<{ status: string; message: string }>(
      s.base,
      MESSAGE_PATH,
      JSON.stringify({ ...valid, channel: 'RaceDayPony' }),
    );
    expect(res.status).toBe(400);
    expect(res.body.status).toBe('fail');
    for (const name of [
      'RaceDayPony',
      'RaceDayTrot',
      'ScratchingsGallop',
      'TimeToStartTrot',
      'Last500MetersGallop',
    ]) {
      expect(res.body.message).toContain(name);
    }
    expect(s.probe.store.size).toBe(0);
  });

  it('413 for a body over 1 MiB, and nothing stored', async () => {
    const big = JSON.stringify({ ...valid, payload: { blob: 'x'.repeat(1024 * 1024) } });
    await expectRefused(big, 413);
  });

  it('accepts a body just under 1 MiB', async () => {
    const body = JSON.stringify({ ...valid, payload: { blob: 'x'.repeat(1000 * 1000) } });
    expect(Buffer.byteLength(body)).toBeLessThan(1024 * 1024);
    const res = await postRaw(s.base, MESSAGE_PATH, body);
    expect(res.status).toBe(201);
    expect(s.probe.store.size).toBe(1);
  });

  it('delivers no transient message for a refused one', async () => {
    const client = await connectAuthenticated(s.wsUrl, TOKENS.alluser);
    const bad = { channel: 'TimeToStartTrot', date: '2026-01-05', payload: { bad: true } };
    expect((await postMessage(s.base, { ...bad, date: 'nope' })).status).toBe(400);
    expect((await postMessage(s.base, { ...bad, payload: 'x' })).status).toBe(400);
    expect((await postMessage(s.base, { ...bad, raceNr: 'one' })).status).toBe(400);
    const ok = await postMessage(s.base, { ...bad, payload: { marker: true } });
    expect(ok.status).toBe(202);
    const next = await client.next('Data');
    expect(next.data?.payload).toEqual({ marker: true });
  });
});

describe('POST /api/message: content types', () => {
  it('works without a content-type header', async () => {
    const res = await postRaw(s.base, MESSAGE_PATH, JSON.stringify(durable), null);
    expect(res.status).toBe(201);
    expect(s.probe.store.size).toBe(1);
  });

  it('works with the form content type curl -d sends', async () => {
    const res = await postRaw(
      s.base,
      MESSAGE_PATH,
      JSON.stringify(durable),
      'application/x-www-form-urlencoded',
    );
    expect(res.status).toBe(201);
    expect(s.probe.store.size).toBe(1);
  });

  it('works over a raw HTTP request without content-type', async () => {
    const body = JSON.stringify({ channel: 'ResultTrot', date: '2026-01-05', payload: { raw: 1 } });
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        `${s.base}${MESSAGE_PATH}`,
        { method: 'POST', headers: { 'content-length': Buffer.byteLength(body) } },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
    expect(status).toBe(201);
    expect(s.probe.store.size).toBe(1);
  });

  it('404 for GET on /api/message', async () => {
    const res = await get(s.base, MESSAGE_PATH);
    expect(res.status).toBe(404);
  });
});
