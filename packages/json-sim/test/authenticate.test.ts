import { TOKENS } from '@racedata/test-support';
import {
  AUTH_PATH,
  EVENTS_PATH,
  closeAll,
  event,
  get,
  postJson,
  postRaw,
  startSim,
  type Started,
} from './helpers';

let s: Started;

beforeEach(async () => {
  s = await startSim();
});

afterEach(closeAll);

interface FailBody {
  status: string;
  message: string;
}

function expectFail(res: { status: number; body: unknown }, status: number): void {
  expect(res.status).toBe(status);
  const body = res.body as FailBody;
  expect(body.status).toBe('fail');
  expect(typeof body.message).toBe('string');
  expect(body.message.length).toBeGreaterThan(0);
}

describe('POST /customerapi/authenticate/subscription', () => {
  it.each([AUTH_PATH, `${AUTH_PATH}/`])(
    '%s returns the fixed token in the authorization header and {"status":"success"}',
    async (path) => {
      const res = await postJson(s.base, path, { key: 'testuser', secret: 'testpassword' });
      expect(res.status).toBe(200);
      expect(res.headers.get('authorization')).toBe(`Bearer ${TOKENS.testuser}`);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.body).toEqual({ status: 'success' });
    },
  );

  it('issues the all-channels token for alluser/allpassword', async () => {
    const res = await postJson(s.base, AUTH_PATH, { key: 'alluser', secret: 'allpassword' });
    expect(res.status).toBe(200);
    expect(res.headers.get('authorization')).toBe(`Bearer ${TOKENS.alluser}`);
    expect(res.body).toEqual({ status: 'success' });
  });

  it('issues a token that is accepted on /customerapi/events', async () => {
    const res = await postJson(s.base, AUTH_PATH, { key: 'testuser', secret: 'testpassword' });
    const header = res.headers.get('authorization') as string;
    s.probe.publish(event('RaceDayTrot'));
    const events = await get(s.base, EVENTS_PATH, undefined, { authorization: header });
    expect(events.status).toBe(200);
    expect(events.body.data?.events.map((e) => e.eventId)).toEqual([1]);
  });

  it.each([
    ['key missing', { secret: 'testpassword' }, 'key'],
    ['secret missing', { key: 'testuser' }, 'secret'],
    ['both missing', {}, 'key'],
    ['key empty', { key: '', secret: 'testpassword' }, 'key'],
    ['key blank', { key: '   ', secret: 'testpassword' }, 'key'],
    ['secret blank', { key: 'testuser', secret: ' \t' }, 'secret'],
    ['key a number', { key: 5, secret: 'testpassword' }, 'key'],
    ['secret null', { key: 'testuser', secret: null }, 'secret'],
    ['secret an object', { key: 'testuser', secret: { v: 'testpassword' } }, 'secret'],
    ['key an array', { key: ['testuser'], secret: 'testpassword' }, 'key'],
  ])('400 when %s', async (_name, body, field) => {
    const res = await postJson(s.base, AUTH_PATH, body);
    expectFail(res, 400);
    expect((res.body as FailBody).message).toContain(field);
    expect(res.headers.get('authorization')).toBeNull();
  });

  it.each([
    ['an array', '[{"key":"testuser","secret":"testpassword"}]'],
    ['a string', '"testuser"'],
    ['a number', '42'],
    ['null', 'null'],
    ['malformed JSON', '{"key":"testuser","secret":'],
    ['not JSON at all', 'key=testuser&secret=testpassword'],
  ])('400 when the body is %s', async (_name, raw) => {
    const res = await postRaw(s.base, AUTH_PATH, raw);
    expectFail(res, 400);
    expect(res.headers.get('authorization')).toBeNull();
  });

  it.each([
    ['wrong secret', { key: 'testuser', secret: 'nope' }],
    ['unknown key', { key: 'nobody', secret: 'testpassword' }],
    ['pair mixed between users', { key: 'testuser', secret: 'allpassword' }],
    ['key with different case', { key: 'TestUser', secret: 'testpassword' }],
  ])('401 for a %s', async (_name, body) => {
    const res = await postJson(s.base, AUTH_PATH, body);
    expectFail(res, 401);
    expect(res.headers.get('authorization')).toBeNull();
  });

  it('404 for GET on the authentication path', async () => {
    const res = await get(s.base, AUTH_PATH);
    expectFail(res, 404);
  });
});
