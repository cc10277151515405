import http from 'node:http';
import fc from 'fast-check';
import type { StoredEvent } from '@racedata/json-sim';
import { JSON_TESTUSER_CHANNELS, TOKENS } from '@racedata/test-support';
import {
  AUTH_PATH,
  EVENTS_PATH,
  FILTERED_PATH,
  MESSAGE_PATH,
  WsClient,
  closeAll,
  startSim,
  type Started,
} from './helpers';

// Garbage at every JSON endpoint of one running simulator: every answer is a documented 2xx or
// 4xx JSON body, never a 5xx, and afterwards the store still answers consistently.

let s: Started;

beforeAll(async () => {
  // Short long polls: a fuzzed request that happens to be a valid poll for nothing new is held.
  s = await startSim({ longPollTimeoutMs: 20 });
});

afterAll(closeAll);

interface Answer {
  status: number;
  contentType: string | undefined;
  text: string;
}

function request(
  method: string,
  path: string,
  headers: http.OutgoingHttpHeaders,
  body?: Buffer,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port: s.address.port, method, path, headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            contentType: res.headers['content-type'],
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Percent-encodes every byte but unreserved ones; keeps lone surrogates (as U+FFFD bytes). */
function encode(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-_.~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

const weirdString = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('\ud800', 'x\udfffy', 'NaN', '-0', '1e400', '9'.repeat(400), '', ' ', '%ZZ', '\u0000'),
);

const anyValue = fc.oneof(
  weirdString,
  fc.integer(),
  fc.double(),
  fc.constantFrom(null, true, 1e308, -1, 2 ** 53 + 2),
  fc.jsonValue({ maxDepth: 4 }),
);

const channel = fc.oneof(
  fc.constantFrom('RaceDayTrot', 'ResultGallop', 'StartListTrot', 'Last500MetersTrot', 'TimeToStartGallop'),
  weirdString,
);

const messageLike = fc
  .record(
    {
      channel: fc.oneof(channel, anyValue),
      date: fc.oneof(fc.constantFrom('2026-11-22', '2026-02-30', '2026-13-45', '0000-01-01'), anyValue),
      trackId: anyValue,
      raceNr: fc.oneof(fc.nat(), anyValue),
      startNr: fc.nat(),
      payload: fc.oneof(fc.object({ maxDepth: 3 }), anyValue),
    },
    { requiredKeys: [] },
  )
  .map((value) => JSON.stringify(value));

const deep = fc
  .tuple(
    fc.integer({ min: 1, max: 5000 }),
    fc.constantFrom('[', '{"a":', '{"channel":"RaceDayTrot","payload":'),
  )
  .map(([n, open]) => open.repeat(n) + (open === '[' ? ']'.repeat(n) : '1' + '}'.repeat(n)));

const deepMessage = fc
  .integer({ min: 1, max: 6000 })
  .map(
    (n) => `{"channel":"RaceDayTrot","date":"2026-11-22","payload":${'{"a":'.repeat(n)}1${'}'.repeat(n)}}`,
  );

const body = fc.oneof(
  deepMessage.map((t) => Buffer.from(t, 'utf8')),
  messageLike.map((t) => Buffer.from(t, 'utf8')),
  fc.json().map((t) => Buffer.from(t, 'utf8')),
  weirdString.map((t) => Buffer.from(t, 'utf8')),
  deep.map((t) => Buffer.from(t, 'utf8')),
  fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes)),
);

const contentType = fc.constantFrom(
  undefined,
  'application/json',
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/json; charset=utf-16le',
  'application/json; charset=latin1',
  'application/json; charset=utf-7',
);

const query = fc
  .array(
    fc.tuple(
      fc.oneof(
        fc.constantFrom(
          'lastEventId',
          'limit',
          'channel',
          'startDate',
          'endDate',
          'trackId',
          'raceNr',
          'startNr',
          'a[b]',
        ),
        weirdString,
      ),
      fc.oneof(
        weirdString,
        fc.nat().map(String),
        fc.constantFrom('0', '2026-11-22', 'RaceDayTrot', 'ResultGallop'),
      ),
    ),
    { maxLength: 5 },
  )
  .map((pairs) => pairs.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&'));

const authorization = fc.constantFrom(
  `Bearer ${TOKENS.testuser}`,
  `Bearer ${TOKENS.alluser}`,
  'Bearer nope',
  TOKENS.testuser,
  '',
  undefined,
);

type Call =
  | { kind: 'message' | 'authenticate'; body: Buffer; contentType: string | undefined }
  | { kind: 'events' | 'filtered'; query: string; authorization: string | undefined; trailingSlash: boolean };

const call: fc.Arbitrary<Call> = fc.oneof(
  fc.record({ kind: fc.constant('message' as const), body, contentType }),
  fc.record({ kind: fc.constant('authenticate' as const), body, contentType }),
  fc.record({
    kind: fc.constantFrom('events' as const, 'filtered' as const),
    query,
    authorization,
    trailingSlash: fc.boolean(),
  }),
);

function send(c: Call): Promise<Answer> {
  if ('body' in c) {
    const headers: http.OutgoingHttpHeaders = { 'content-length': c.body.length };
    if (c.contentType !== undefined) headers['content-type'] = c.contentType;
    return request('POST', c.kind === 'message' ? MESSAGE_PATH : AUTH_PATH, headers, c.body);
  }
  const path = (c.kind === 'events' ? EVENTS_PATH : FILTERED_PATH) + (c.trailingSlash ? '/' : '');
  const headers: http.OutgoingHttpHeaders = {};
  if (c.authorization !== undefined) headers.authorization = c.authorization;
  return request('GET', `${path}?${c.query}`, headers);
}

interface Page {
  status: string;
  data: { numberOfEvents: number; hasMore: boolean; events: StoredEvent[] };
}

function checkAnswer(c: Call, a: Answer): void {
  const good = (a.status >= 200 && a.status < 300) || (a.status >= 400 && a.status < 500);
  expect({ status: a.status, good, text: a.text.slice(0, 300) }).toMatchObject({ good: true });
  if (a.status === 204) {
    expect(a.text).toBe('');
    return;
  }
  expect(a.contentType).toMatch(/^application\/json/);
  const parsed = JSON.parse(a.text) as Record<string, unknown>;
  if (a.status >= 400) {
    expect(parsed).toEqual({ status: 'fail', message: expect.any(String) as unknown });
    expect((parsed.message as string).length).toBeLessThan(1200);
    return;
  }
  expect(parsed.status).toBe('success');
  if (c.kind === 'authenticate') {
    expect(parsed).toEqual({ status: 'success' });
  } else if (c.kind === 'message') {
    const data = parsed.data as { delivery: string; event?: StoredEvent; recipients?: number };
    if (data.delivery === 'durable') {
      expect(a.status).toBe(201);
      expect(typeof data.event?.eventId).toBe('number');
      expect(typeof data.event?.channel).toBe('string');
    } else {
      expect(data).toEqual({ delivery: 'transient', recipients: expect.any(Number) as unknown });
    }
  } else {
    const page = parsed as unknown as Page;
    expect(page.data.numberOfEvents).toBe(page.data.events.length);
    expect(typeof page.data.hasMore).toBe('boolean');
    if ('authorization' in c && c.authorization?.includes(TOKENS.testuser)) {
      for (const e of page.data.events) expect(JSON_TESTUSER_CHANNELS.has(e.channel)).toBe(true);
    }
  }
}

async function allEvents(token: string): Promise<Page['data']> {
  const a = await request('GET', `${EVENTS_PATH}?lastEventId=0&limit=10000`, {
    authorization: `Bearer ${token}`,
  });
  if (a.status === 204) return { numberOfEvents: 0, hasMore: false, events: [] };
  expect(a.status).toBe(200);
  return (JSON.parse(a.text) as Page).data;
}

describe('fuzzing the HTTP endpoints of one simulator', () => {
  it('answers every request with a 2xx or 4xx of the documented shape, and the store stays consistent', async () => {
    await fc.assert(
      fc.asyncProperty(call, async (c) => {
        checkAnswer(c, await send(c));
      }),
      { numRuns: 200 },
    );

    const before = await allEvents(TOKENS.alluser);
    const lastId = before.events.at(-1)?.eventId ?? 0;
    expect(before.numberOfEvents).toBe(before.events.length);
    before.events.forEach((e, i) => expect(e.eventId).toBe(i + 1));

    const posted = await request(
      'POST',
      MESSAGE_PATH,
      { 'content-type': 'application/json' },
      Buffer.from(JSON.stringify({ channel: 'ResultGallop', date: '2026-11-22', payload: { after: 1 } })),
    );
    expect(posted.status).toBe(201);
    const stored = (JSON.parse(posted.text) as { data: { event: StoredEvent } }).data.event;
    expect(stored).toMatchObject({ channel: 'ResultGallop', eventId: lastId + 1, payload: { after: 1 } });

    const mine = await allEvents(TOKENS.testuser);
    expect(mine.numberOfEvents).toBe(mine.events.length);
    for (const e of mine.events) expect(JSON_TESTUSER_CHANNELS.has(e.channel)).toBe(true);
    const filtered = await request('GET', `${FILTERED_PATH}?lastEventId=0&limit=10000`, {
      authorization: `Bearer ${TOKENS.alluser}`,
    });
    const page = (JSON.parse(filtered.text) as Page).data;
    expect(page.numberOfEvents).toBe(page.events.length);
    expect(page.events.at(-1)?.eventId).toBe(lastId + 1);
  });
});

describe('fuzzing the first event-stream message', () => {
  const first = fc.oneof(
    weirdString,
    fc.json(),
    deep.filter((t) => t.length < 60_000),
    fc.constantFrom(TOKENS.testuser, `Bearer ${TOKENS.alluser}`, JSON.stringify({ token: TOKENS.testuser })),
    anyValue.map((token) => JSON.stringify({ token })),
    anyValue.map((authorization) => JSON.stringify({ authorization })),
  );

  it('answers Authenticated, or AuthenticationError and close 1008; never anything else', async () => {
    await fc.assert(
      fc.asyncProperty(first, async (text) => {
        const client = await WsClient.connect(s.wsUrl);
        try {
          expect((await client.next()).type).toBe('Connection');
          client.send(text);
          const reply = await client.next();
          expect(['Authenticated', 'AuthenticationError']).toContain(reply.type);
          if (reply.type === 'AuthenticationError') expect((await client.closed).code).toBe(1008);
        } finally {
          client.terminate();
        }
      }),
      { numRuns: 60 },
    );
    // Still serving.
    const client = await WsClient.connect(s.wsUrl);
    await client.next();
    await client.authenticate(TOKENS.testuser);
  });
});
