import { JSON_TESTUSER_CHANNELS, TOKENS } from '@racedata/test-support';
import {
  AUTH_PATH,
  EVENTS_PATH,
  FILTERED_PATH,
  MESSAGE_PATH,
  WsClient,
  closeAll,
  get,
  postMessage,
  postRaw,
  startSim,
  type Started,
} from './helpers';

// Bodies nesting objects and arrays deeper than 64 levels are refused before they are parsed:
// a deep payload once reached the store, failed to serialise half-way through an append and
// left the store's log and indexes out of step until restart.

let s: Started;

beforeEach(async () => {
  s = await startSim();
});

afterEach(closeAll);

/** A message whose payload nests `levels` objects (the body itself is one level more). */
function nestedMessage(levels: number, channel = 'RaceDayTrot'): string {
  return `{"channel":"${channel}","date":"2026-11-22","payload":${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}}`;
}

/** The store answers as if the refused requests never happened. */
async function expectConsistentStore(nextId: number): Promise<void> {
  const posted = await postMessage(s.base, {
    channel: 'ResultGallop',
    date: '2026-11-22',
    payload: { after: true },
  });
  expect(posted.status).toBe(201);
  expect(JSON.parse(posted.text)).toMatchObject({
    status: 'success',
    data: { delivery: 'durable', event: { channel: 'ResultGallop', eventId: nextId } },
  });
  const mine = await postMessage(s.base, { channel: 'RaceDayTrot', date: '2026-11-22', payload: { b: 2 } });
  expect(mine.status).toBe(201);
  expect(JSON.parse(mine.text)).toMatchObject({ data: { event: { eventId: nextId + 1 } } });

  // testuser is not subscribed to ResultGallop: it must see only its own channels.
  const events = await get(s.base, `${EVENTS_PATH}?lastEventId=0`, TOKENS.testuser);
  expect(events.status).toBe(200);
  const seen = events.body.data?.events ?? [];
  expect(seen.length).toBeGreaterThan(0);
  for (const e of seen) expect(JSON_TESTUSER_CHANNELS.has(e.channel)).toBe(true);
  expect(events.body.data?.numberOfEvents).toBe(seen.length);

  const filtered = await get(s.base, `${FILTERED_PATH}?lastEventId=0`, TOKENS.alluser);
  expect(filtered.status).toBe(200);
  expect(filtered.body.data?.numberOfEvents).toBe(filtered.body.data?.events.length);
  expect(filtered.body.data?.events.map((e) => e.eventId)).toEqual(
    Array.from({ length: nextId + 1 }, (_, i) => i + 1),
  );
}

describe('deep JSON bodies', () => {
  it('a payload 5,000 levels deep is refused with 400 naming the limit, and the store stays whole', async () => {
    await postMessage(s.base, { channel: 'RaceDayTrot', date: '2026-11-22', payload: { first: 1 } });
    const res = await postRaw(s.base, MESSAGE_PATH, nestedMessage(5000));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      status: 'fail',
      message: expect.stringMatching(/more than 64 levels deep/) as unknown,
    });
    await expectConsistentStore(2);
  });

  it('a 100,000-deep array body is refused with 400 before it is parsed', async () => {
    const res = await postRaw(s.base, MESSAGE_PATH, '['.repeat(100_000) + ']'.repeat(100_000));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      status: 'fail',
      message: expect.stringMatching(/64 levels/) as unknown,
    });
    // Unbalanced garbage is measured the same way.
    const open = await postRaw(s.base, MESSAGE_PATH, '{"a":'.repeat(100_000));
    expect(open.status).toBe(400);
    expect(open.body).toMatchObject({ message: expect.stringMatching(/64 levels/) as unknown });
    await expectConsistentStore(1);
  });

  it('accepts exactly 64 levels and refuses 65', async () => {
    const ok = await postRaw(s.base, MESSAGE_PATH, nestedMessage(63));
    expect(ok.status).toBe(201);
    const tooDeep = await postRaw(s.base, MESSAGE_PATH, nestedMessage(64));
    expect(tooDeep.status).toBe(400);
    expect(tooDeep.body).toMatchObject({ message: expect.stringMatching(/64 levels/) as unknown });
  });

  it('brackets inside strings, escaped quotes included, do not count', async () => {
    const tricky = {
      channel: 'RaceDayTrot',
      date: '2026-11-22',
      payload: { s: '['.repeat(1000), t: '\\"{{{{'.repeat(100), u: '"'.repeat(5) + '{'.repeat(100) },
    };
    const res = await postMessage(s.base, tricky);
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ event: { payload: tricky.payload } });
  });

  it('refuses a deep body sent in UTF-16 as well', async () => {
    const text = nestedMessage(200);
    const utf16 = Buffer.from(text, 'utf16le');
    const res = await fetch(s.base + MESSAGE_PATH, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-16le' },
      body: utf16,
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ message: expect.stringMatching(/64 levels/) as unknown });
  });

  it('authentication refuses a deep body with 400 too', async () => {
    const res = await postRaw(s.base, AUTH_PATH, `{"key":"testuser","secret":${'['.repeat(10_000)}}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      status: 'fail',
      message: expect.stringMatching(/64 levels/) as unknown,
    });
  });

  it('a deep payload published in-process (replay, embedders) throws and leaves the store whole', async () => {
    let payload: Record<string, unknown> = { leaf: 1 };
    for (let i = 0; i < 20_000; i++) payload = { a: payload };
    expect(() => s.probe.publish({ channel: 'RaceDayTrot', date: '2026-11-22', payload })).toThrow();
    await expectConsistentStore(1);
  });
});

describe('deep JSON as the first event-stream message', () => {
  it('gets an AuthenticationError and close 1008, and the server keeps serving', async () => {
    for (const first of [
      `{"token":${'['.repeat(30_000)}${']'.repeat(30_000)}}`,
      `{"token":"${TOKENS.testuser}","x":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}`,
      '{'.repeat(60_000),
    ]) {
      const client = await WsClient.connect(s.wsUrl);
      expect((await client.next()).type).toBe('Connection');
      client.send(first);
      const reply = await client.next();
      expect(reply.type).toBe('AuthenticationError');
      expect((await client.closed).code).toBe(1008);
    }
    const ok = await WsClient.connect(s.wsUrl);
    await ok.next();
    await ok.authenticate(JSON.stringify({ token: TOKENS.testuser, extra: [[[1]]] }));
  });
});
