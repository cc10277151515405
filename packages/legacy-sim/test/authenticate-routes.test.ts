import request from 'supertest';
import { ManualClock } from '@racedata/core';
import type { Simulator } from '@racedata/control';
import { TOKENS } from '@racedata/test-support';
import { createLegacySimulator } from '../src';

const sims: Simulator[] = [];
function sim(settings = {}, clock?: ManualClock): Simulator {
  const s = createLegacySimulator(settings, clock ? { clock } : {});
  sims.push(s);
  return s;
}
afterEach(async () => {
  await Promise.all(sims.splice(0).map((s) => s.close()));
});

const basic = (pair: string) => `Basic ${Buffer.from(pair).toString('base64')}`;

describe('POST /customerapi/authenticate/subscription', () => {
  it.each(['/customerapi/authenticate/subscription', '/customerapi/authenticate/subscription/'])(
    'returns the fixed token in the authorization header at %s',
    async (path) => {
      const res = await request(sim().app).post(path).send({ key: 'testuser', secret: 'testpassword' });
      expect(res.status).toBe(200);
      expect(res.headers.authorization).toBe(`Bearer ${TOKENS.testuser}`);
      expect(res.body).toEqual({ status: 'success' });
    },
  );

  it('reads the JSON body whatever the content type says', async () => {
    const res = await request(sim().app)
      .post('/customerapi/authenticate/subscription')
      .set('content-type', 'application/x-www-form-urlencoded')
      .send('{"key":"testuser","secret":"testpassword"}');
    expect(res.status).toBe(200);
  });

  it.each([
    ['missing secret', { key: 'testuser' }],
    ['blank key', { key: '  ', secret: 'testpassword' }],
    ['non-string secret', { key: 'testuser', secret: 42 }],
    ['array body', [1, 2]],
  ])('answers 400 for %s', async (_why, body) => {
    const res = await request(sim().app).post('/customerapi/authenticate/subscription').send(body);
    expect(res.status).toBe(400);
    expect(res.body.status).toBe('fail');
    expect(res.headers.authorization).toBeUndefined();
  });

  it('answers 400 for malformed JSON and for no body', async () => {
    const app = sim().app;
    const bad = await request(app)
      .post('/customerapi/authenticate/subscription')
      .set('content-type', 'application/json')
      .send('{"key":');
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('MALFORMED_JSON');
    expect((await request(app).post('/customerapi/authenticate/subscription')).status).toBe(400);
  });

  it('answers 401 for a wrong pair', async () => {
    const res = await request(sim().app)
      .post('/customerapi/authenticate/subscription')
      .send({ key: 'testuser', secret: 'wrong' });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ status: 'fail', code: 'CREDENTIALS_INVALID', message: expect.any(String) });
  });

  it('issues a JWT in jwt mode that listen accepts until it expires', async () => {
    const clock = new ManualClock();
    const s = sim({ tokenMode: 'jwt', tokenTtlSeconds: 60, longPollTimeoutMs: 1 }, clock);
    const res = await request(s.app)
      .post('/customerapi/authenticate/subscription')
      .send({ key: 'testuser', secret: 'testpassword' });
    const header = res.headers.authorization as string;
    expect(header).toMatch(/^Bearer [\w-]+\.[\w-]+\.[\w-]+$/);
    await request(s.app)
      .post('/customerapi/channel/id/Durable')
      .set('content-type', 'application/json')
      .send('<a/>')
      .expect(200);
    const ok = await request(s.app).get('/customerapi/channels/listen').set('authorization', header);
    expect(ok.status).toBe(200);
    clock.advance(61_000);
    const expired = await request(s.app).get('/customerapi/channels/listen').set('authorization', header);
    expect(expired.status).toBe(401);
    expect(expired.body.code).toBe('TOKEN_EXPIRED');
  });
});

describe('POST /authenticate (HTTP Basic)', () => {
  it('returns the token for good Basic credentials', async () => {
    const res = await request(sim().app)
      .post('/authenticate')
      .set('authorization', basic('testuser:testpassword'));
    expect(res.status).toBe(200);
    expect(res.headers.authorization).toBe(`Bearer ${TOKENS.testuser}`);
    expect(res.body).toEqual({ status: 'success' });
  });

  it('ignores a body when Basic credentials are given', async () => {
    const res = await request(sim().app)
      .post('/authenticate')
      .set('authorization', basic('testuser:testpassword'))
      .set('content-type', 'application/json')
      .send('not json');
    expect(res.status).toBe(200);
  });

  it('accepts the JSON body when no Authorization header is sent', async () => {
    const res = await request(sim().app)
      .post('/authenticate')
      .send({ key: 'testuser', secret: 'testpassword' });
    expect(res.status).toBe(200);
  });

  it.each([
    ['no credentials at all', undefined],
    ['a non-Basic scheme', 'Bearer abc'],
    ['no colon', basic('testuser')],
    ['a blank secret', basic('testuser:')],
  ])('answers 400 for %s', async (_why, header) => {
    const req = request(sim().app).post('/authenticate');
    const res = await (header === undefined ? req : req.set('authorization', header));
    expect(res.status).toBe(400);
  });

  it('answers 401 for a wrong pair', async () => {
    const res = await request(sim().app).post('/authenticate').set('authorization', basic('testuser:nope'));
    expect(res.status).toBe(401);
  });
});
