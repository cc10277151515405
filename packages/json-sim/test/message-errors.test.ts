import http from 'node:http';
import { TOKENS } from '@racedata/test-support';
import {
  EVENTS_PATH,
  FILTERED_PATH,
  MESSAGE_PATH,
  closeAll,
  get,
  postMessage,
  postRaw,
  startSim,
  type Started,
} from './helpers';

// What POST /api/message and the read endpoints say about bad input: valid JSON that is not an
// object is named as such, wrong types name the field, and client input is never repeated at
// length (cut to 64 characters and "…").

let s: Started;

beforeEach(async () => {
  s = await startSim();
});

afterEach(closeAll);

const LONG = 'Q'.repeat(100_000);
const valid = { channel: 'RaceDayTrot', date: '2026-11-22', payload: { a: 1 } };

function failMessage(body: unknown): string {
  expect(body).toEqual({ status: 'fail', message: expect.any(String) as unknown });
  return (body as { message: string }).message;
}

describe('bodies that are valid JSON but not an object', () => {
  it.each(['"x"', 'null', '[]', '42', 'true', '[{"channel":"RaceDayTrot"}]'])(
    '%s: 400 "must be a JSON object"',
    async (body) => {
      const res = await postRaw(s.base, MESSAGE_PATH, body);
      expect(res.status).toBe(400);
      expect(failMessage(res.body)).toMatch(/^the body must be a JSON object/);
    },
  );

  it('malformed JSON is still "not valid JSON"', async () => {
    const res = await postRaw(s.base, MESSAGE_PATH, '{"channel":');
    expect(res.status).toBe(400);
    expect(failMessage(res.body)).toBe('request body is not valid JSON');
  });
});

describe('wrong types name the field', () => {
  it.each([
    ['trackId', { trackId: '5' }, /^trackId must be a whole number >= 0, got "5" \(a string\)$/],
    ['raceNr', { raceNr: 1.5 }, /^raceNr must be a whole number >= 0, got 1\.5$/],
    ['startNr', { startNr: -3 }, /^startNr must be a whole number >= 0, got -3$/],
    ['date', { date: '2026-13-45' }, /^date must be a real date written YYYY-MM-DD, got "2026-13-45"/],
    ['date', { date: 20261122 }, /^date must be a real date/],
    ['payload', { payload: 'text' }, /^payload must be a JSON object, got "text" \(a string\)$/],
    ['payload', { payload: [1] }, /^payload must be a JSON object, got an array$/],
    ['channel', { channel: { name: 'x' } }, /^channel must be a non-empty string, got an object$/],
  ])('%s', async (_field, change, expected) => {
    const res = await postMessage(s.base, { ...valid, ...change });
    expect(res.status).toBe(400);
    expect(failMessage(res.body)).toMatch(expected);
  });

  it('a number too large for a double is refused, not stored as Infinity', async () => {
    const res = await postRaw(
      s.base,
      MESSAGE_PATH,
      '{"channel":"RaceDayTrot","date":"2026-11-22","startNr":1e400,"payload":{}}',
    );
    expect(res.status).toBe(400);
    expect(failMessage(res.body)).toBe('startNr must be a whole number >= 0, got Infinity');
  });

  it('a missing payload says so', async () => {
    const res = await postMessage(s.base, { channel: 'RaceDayTrot', date: '2026-11-22' });
    expect(failMessage(res.body)).toBe('payload must be a JSON object, got nothing');
  });
});

describe('input is never echoed at length', () => {
  const short = (message: string) => {
    expect(message.length).toBeLessThan(1200);
    expect(message).not.toContain('Q'.repeat(65));
  };

  it('a huge unknown channel name', async () => {
    const res = await postMessage(s.base, { ...valid, channel: LONG });
    expect(res.status).toBe(400);
    const message = failMessage(res.body);
    short(message);
    expect(message).toContain(`"${'Q'.repeat(64)}…"`);
  });

  it.each([
    ['a date', { date: LONG }],
    ['a number field', { trackId: LONG }],
    ['a payload', { payload: LONG }],
  ])('%s', async (_name, change) => {
    const res = await postMessage(s.base, { ...valid, ...change });
    expect(res.status).toBe(400);
    short(failMessage(res.body));
  });

  it.each([
    [EVENTS_PATH, `lastEventId=${'9'.repeat(5000)}`],
    [EVENTS_PATH, `limit=${LONG.slice(0, 5000)}`],
    [FILTERED_PATH, `channel=${LONG.slice(0, 5000)}`],
    [FILTERED_PATH, `startDate=${LONG.slice(0, 5000)}`],
    [FILTERED_PATH, `trackId=${LONG.slice(0, 5000)}`],
  ])('%s?%s', async (path, query) => {
    const res = await get(s.base, `${path}?${query}`, TOKENS.alluser);
    expect(res.status).toBe(400);
    short(failMessage(res.body));
  });

  it('an unknown long path', async () => {
    const res = await get(s.base, `/${LONG.slice(0, 8000)}`);
    expect(res.status).toBe(404);
    short(failMessage(res.body));
  });

  it('a long unsupported charset', async () => {
    const res = await postRaw(s.base, MESSAGE_PATH, '{}', `application/json; charset=${LONG.slice(0, 4000)}`);
    expect(res.status).toBe(415);
    short(failMessage(res.body));
  });
});

describe('odd values do not break anything', () => {
  it('huge numbers and lone surrogates in a payload are stored and read back as valid JSON', async () => {
    const body = `{"channel":"RaceDayTrot","date":"2026-11-22","payload":{"big":1e400,"small":-1e400,"s":"\\ud800x\\udfff","nan":"NaN"}}`;
    const res = await postRaw(s.base, MESSAGE_PATH, body);
    expect(res.status).toBe(201);
    const page = await get(s.base, `${EVENTS_PATH}?lastEventId=0`, TOKENS.testuser);
    expect(page.status).toBe(200);
    expect(page.body.data?.events[0]?.payload).toEqual({
      big: null,
      small: null,
      s: '\ud800x\udfff',
      nan: 'NaN',
    });
  });

  it('a lone surrogate in the channel name is a plain 400', async () => {
    const res = await postRaw(s.base, MESSAGE_PATH, '{"channel":"\\ud800","date":"2026-11-22","payload":{}}');
    expect(res.status).toBe(400);
    expect(failMessage(res.body)).toMatch(/^unknown channel "\\ud800"/);
  });

  it('NaN-like query values are 400', async () => {
    for (const value of ['NaN', 'Infinity', '-1', '1e3', '0x10', ' ']) {
      const res = await get(
        s.base,
        `${EVENTS_PATH}?lastEventId=${encodeURIComponent(value)}`,
        TOKENS.testuser,
      );
      expect(res.status).toBe(400);
    }
  });

  it('bad percent-encoding in a query is not a 500', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      http
        .get(
          {
            host: '127.0.0.1',
            port: s.address.port,
            path: `${FILTERED_PATH}?channel=%E0%A4%A&startDate=%ZZ`,
            headers: { authorization: `Bearer ${TOKENS.alluser}` },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        )
        .on('error', reject);
    });
    expect(status).toBe(400);
  });
});
