import { request } from 'node:http';
import { TOKENS } from '@racedata/test-support';
import {
  EVENTS_PATH,
  FILTERED_PATH,
  closeAll,
  get,
  postMessage,
  postRaw,
  startSim,
  waitFor,
  type EventPageBody,
} from './helpers';

// POST /_sim/events: bulk seeding of the durable store from NDJSON, all or nothing.

afterEach(closeAll);

const SEED_PATH = '/_sim/events';
const ndjson = (lines: unknown[]) => lines.map((line) => JSON.stringify(line)).join('\n');
const event = (i: number, extra: Record<string, unknown> = {}) => ({
  channel: 'RaceDayTrot',
  date: '2026-03-14',
  trackId: 5,
  raceNr: (i % 3) + 1,
  payload: { i, track: 'Åby' },
  ...extra,
});

async function storeState(base: string): Promise<{ events: number; lastEventId: number }> {
  const res = await get<{ store: { events: number; lastEventId: number } }>(base, '/_sim/state');
  return res.body.store;
}

describe('POST /_sim/events', () => {
  it('stores every line in order and answers 201 with the count and the eventIds', async () => {
    const s = await startSim();
    expect((await postMessage(s.base, event(0))).status).toBe(201);
    const res = await postRaw(
      s.base,
      SEED_PATH,
      ndjson([1, 2, 3, 4].map((i) => event(i))),
      'application/x-ndjson',
    );
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ seeded: 4, firstEventId: 2, lastEventId: 5 });
    const page = await get(s.base, `${EVENTS_PATH}?lastEventId=1&limit=10`, TOKENS.testuser);
    expect(page.body.data?.events.map((e) => [e.eventId, (e.payload as { i: number }).i])).toEqual([
      [2, 1],
      [3, 2],
      [4, 3],
      [5, 4],
    ]);
    // Seeded events are served exactly as posted ones, filters and all.
    const filtered = await get(s.base, `${FILTERED_PATH}?trackId=5&raceNr=2`, TOKENS.alluser);
    expect(filtered.body.data?.events.map((e) => e.eventId)).toEqual([2, 5]);
    expect(filtered.body.data?.events[0]).toMatchObject({
      channel: 'RaceDayTrot',
      date: '2026-03-14',
      trackId: 5,
      raceNr: 2,
      payload: { i: 1, track: 'Åby' },
    });
    // The next posted message takes the next eventId.
    const next = await postMessage(s.base, event(9));
    expect(next.body).toMatchObject({ data: { event: { eventId: 6 } } });
  });

  it('serves a seeded event byte for byte as the same event posted to /api/message', async () => {
    const s = await startSim();
    // Whitespace, escapes and number forms the line writes its own way; the store keeps the
    // canonical JSON form, as for a posted body. Optional ids left out and given as null.
    const line =
      '{ "channel" : "RaceDayTrot", "date":"2026-03-14", "raceNr": null, "startNr": 7,' +
      ' "payload": {"name":"\\u00c5by \\"north\\"","odds":1.50,"big":1e3,"tab":"\\t","emoji":"🐎"} }';
    const posted = JSON.parse(line) as Record<string, unknown>;
    expect((await postMessage(s.base, posted)).status).toBe(201);
    expect((await postRaw(s.base, SEED_PATH, line, null)).status).toBe(201);
    const res = await fetch(`${s.base}${EVENTS_PATH}?lastEventId=0&limit=10`, {
      headers: { authorization: `Bearer ${TOKENS.alluser}` },
    });
    const text = await res.text();
    const events = (JSON.parse(text) as EventPageBody).data?.events ?? [];
    expect(events).toHaveLength(2);
    // The page is the canonical JSON of its events, and the two differ only in what the store assigns.
    expect(text).toBe(JSON.stringify(JSON.parse(text)));
    const [first, second] = events.map((e) => {
      const rest: Record<string, unknown> = { ...e };
      delete rest.eventId;
      delete rest.created_at;
      return JSON.stringify(rest);
    });
    expect(second).toBe(first);
    expect(second).toBe(
      '{"channel":"RaceDayTrot","date":"2026-03-14","startNr":7,' +
        '"payload":{"name":"Åby \\"north\\"","odds":1.5,"big":1000,"tab":"\\t","emoji":"🐎"}}',
    );
  });

  it('stores a line whose payload has 200,000 keys, the same as posted', async () => {
    const s = await startSim();
    const payload = Object.fromEntries(
      Array.from({ length: 200_000 }, (_, k) => [`k${String(k).padStart(6, '0')}`, k]),
    );
    const res = await postRaw(s.base, SEED_PATH, JSON.stringify(event(1, { payload })), null);
    expect(res.body).toEqual({ seeded: 1, firstEventId: 1, lastEventId: 1 });
    const page = await get(s.base, `${EVENTS_PATH}?lastEventId=0`, TOKENS.alluser);
    expect(page.body.data?.events[0]?.payload).toEqual(payload);
  });

  it('skips blank lines, takes \\r\\n line ends and a last line without a newline', async () => {
    const s = await startSim();
    const body = `${JSON.stringify(event(1))}\r\n\r\n  \n${JSON.stringify(event(2))}`;
    const res = await postRaw(s.base, SEED_PATH, body, null);
    expect(res.body).toEqual({ seeded: 2, firstEventId: 1, lastEventId: 2 });
  });

  it('an empty body seeds nothing', async () => {
    const s = await startSim();
    const res = await postRaw(s.base, SEED_PATH, '', null);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ seeded: 0, firstEventId: null, lastEventId: null });
  });

  it('wakes a held long poll', async () => {
    const s = await startSim();
    const held = get(s.base, `${EVENTS_PATH}?lastEventId=0`, TOKENS.testuser);
    await waitFor(() => s.probe.polls.size === 1, 'the held poll');
    await postRaw(s.base, SEED_PATH, ndjson([event(1)]), null);
    expect((await held).body.data?.events.map((e) => e.eventId)).toEqual([1]);
  });

  const bad: Array<[string, string, RegExp]> = [
    ['a line that is not JSON', `${JSON.stringify(event(1))}\n{"channel":`, /^line 2: not valid JSON/],
    [
      'a line with a bad date',
      ndjson([event(1), event(2), event(3, { date: '2026-02-30' })]),
      /^line 3: date must be a real date/,
    ],
    ['an unknown channel', ndjson([event(1, { channel: 'Nope' })]), /^line 1: unknown channel "Nope"/],
    [
      'a transient channel',
      ndjson([event(1), event(2, { channel: 'TimeToStartTrot' })]),
      /^line 2: channel "TimeToStartTrot" is transient; only durable events can be seeded$/,
    ],
    [
      'a line that is not an object',
      `${JSON.stringify(event(1))}\n[1,2]`,
      /^line 2: the body must be a JSON object/,
    ],
    [
      'a line nested too deep',
      `${JSON.stringify(event(1))}\n${'['.repeat(100)}${']'.repeat(100)}`,
      /^line 2: nests objects and arrays more than 64 levels/,
    ],
  ];

  it.each(bad)('refuses %s with 400 naming the line, and stores nothing', async (_name, body, message) => {
    const s = await startSim();
    await postMessage(s.base, event(0));
    const res = await postRaw<{ status: string; code: string; message: string }>(
      s.base,
      SEED_PATH,
      body,
      null,
    );
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 'fail', code: 'INVALID_MESSAGE' });
    expect(res.body.message).toMatch(message);
    expect(await storeState(s.base)).toMatchObject({ events: 1, lastEventId: 1 });
    const page = await get<EventPageBody>(s.base, `${EVENTS_PATH}?lastEventId=0`, TOKENS.alluser);
    expect(page.body.data?.events).toHaveLength(1);
  });

  it('refuses a body over SEED_MAX_BODY_BYTES with 413, storing nothing', async () => {
    const s = await startSim({ seedMaxBodyBytes: 2000, maxBodyBytes: 100 });
    const lines = Array.from({ length: 30 }, (_, i) => event(i));
    const res = await postRaw<{ message: string }>(s.base, SEED_PATH, ndjson(lines), null);
    expect(res.status).toBe(413);
    expect(res.body.message).toMatch(/SEED_MAX_BODY_BYTES/);
    expect(await storeState(s.base)).toMatchObject({ events: 0, lastEventId: 0 });
    // A seed within the limit passes, although larger than MAX_BODY_BYTES.
    const ok = await postRaw(s.base, SEED_PATH, ndjson(lines.slice(0, 5)), null);
    expect(ok.body).toMatchObject({ seeded: 5 });
  });

  it('cuts a chunked body once it passes the limit, storing nothing', async () => {
    const s = await startSim({ seedMaxBodyBytes: 3000 });
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${s.base}${SEED_PATH}`, { method: 'POST' }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      // No Content-Length: the limit is found while reading.
      for (let i = 0; i < 40; i++) req.write(`${JSON.stringify(event(i))}\n`);
      req.end();
    });
    expect(status).toBe(413);
    expect(await storeState(s.base)).toMatchObject({ events: 0, lastEventId: 0 });
  });

  it('refuses a body announced larger than the limit before reading it', async () => {
    const s = await startSim({ seedMaxBodyBytes: 1000 });
    const res = await postRaw<{ code: string }>(s.base, SEED_PATH, 'x'.repeat(5000), null);
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('seeded events count against the store caps like posted ones', async () => {
    const s = await startSim({ eventStoreMax: 3 });
    const res = await postRaw(s.base, SEED_PATH, ndjson([1, 2, 3, 4, 5].map((i) => event(i))), null);
    expect(res.body).toEqual({ seeded: 5, firstEventId: 1, lastEventId: 5 });
    expect(await storeState(s.base)).toEqual(expect.objectContaining({ events: 3, lastEventId: 5 }));
    expect(s.probe.store.dropped).toBe(2);
  });

  it('is a POST only', async () => {
    const s = await startSim();
    expect((await get(s.base, SEED_PATH)).status).toBe(404);
  });
});
