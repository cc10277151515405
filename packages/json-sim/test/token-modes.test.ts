import jwt from 'jsonwebtoken';
import { ManualClock } from '@racedata/core';
import { TOKENS } from '@racedata/test-support';
import {
  AUTH_PATH,
  EVENTS_PATH,
  FILTERED_PATH,
  WsClient,
  authenticate,
  closeAll,
  connectAuthenticated,
  event,
  get,
  postJson,
  startSim,
  type Started,
} from './helpers';

const SECRET = 'json-sim-test-secret';
const TTL = 3600;

afterEach(closeAll);

function b64url(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

function segments(token: string): [string, string, string] {
  const parts = token.split('.');
  expect(parts).toHaveLength(3);
  return parts as [string, string, string];
}

/** Authenticates a WebSocket with the token; resolves to the reply type and, if closed, the code. */
async function streamAuth(s: Started, token: string): Promise<{ type: string; code?: number }> {
  const client = await WsClient.connect(s.wsUrl);
  expect((await client.next()).type).toBe('Connection');
  client.send(token);
  const reply = await client.next();
  if (reply.type === 'AuthenticationError') return { type: reply.type, code: (await client.closed).code };
  return { type: reply.type };
}

describe('token mode jwt', () => {
  let clock: ManualClock;
  let s: Started;

  beforeEach(async () => {
    clock = new ManualClock(Date.UTC(2026, 0, 5, 12));
    s = await startSim({ tokenMode: 'jwt', tokenTtlSeconds: TTL, jwtSecret: SECRET }, { clock });
    // Data exists, so /events answers at once (the manual clock would never time a poll out).
    s.probe.publish(event('RaceDayTrot'));
    s.probe.publish(event('ScratchingsGallop'));
  });

  it('authenticate issues a real HS256 JWT with sub = key and exp = now + TTL', async () => {
    const token = await authenticate(s.base, 'testuser', 'testpassword');
    const [header] = segments(token);
    expect(JSON.parse(Buffer.from(header, 'base64url').toString())).toEqual({ alg: 'HS256', typ: 'JWT' });
    const claims = jwt.verify(token, SECRET, {
      algorithms: ['HS256'],
      clockTimestamp: Math.floor(clock.now() / 1000),
    }) as jwt.JwtPayload;
    const now = Math.floor(clock.now() / 1000);
    expect(claims.sub).toBe('testuser');
    expect(claims.iat).toBe(now);
    expect(claims.exp).toBe(now + TTL);
    expect(token).not.toBe(TOKENS.testuser);
  });

  it('the JWT is accepted on /events, /filtered-events and the event stream, with the user subscription', async () => {
    const token = await authenticate(s.base, 'testuser', 'testpassword');
    const events = await get(s.base, `${EVENTS_PATH}?lastEventId=0`, token);
    expect(events.status).toBe(200);
    expect(events.body.data?.events.map((e) => e.channel)).toEqual(['RaceDayTrot']);
    expect((await get(s.base, FILTERED_PATH, token)).status).toBe(200);

    const client = await connectAuthenticated(s.wsUrl, token);
    s.probe.publish(event('TimeToStartGallop', { payload: { n: 1 } })); // not for testuser
    s.probe.publish(event('TimeToStartTrot', { payload: { n: 2 } }));
    expect((await client.next()).data?.payload).toEqual({ n: 2 });
  });

  it('the alluser JWT carries the all-channels subscription', async () => {
    const token = await authenticate(s.base, 'alluser', 'allpassword');
    expect(jwt.decode(token)).toMatchObject({ sub: 'alluser' });
    const events = await get(s.base, `${EVENTS_PATH}?lastEventId=0`, token);
    expect(events.body.data?.events.map((e) => e.channel)).toEqual(['RaceDayTrot', 'ScratchingsGallop']);
  });

  it('stays valid until the TTL and gets 401 once the clock passes it', async () => {
    const token = await authenticate(s.base, 'testuser', 'testpassword');
    clock.advance((TTL - 1) * 1000);
    expect((await get(s.base, `${EVENTS_PATH}?lastEventId=0`, token)).status).toBe(200);
    expect((await streamAuth(s, token)).type).toBe('Authenticated');

    clock.advance(2000);
    const expired = await get(s.base, `${EVENTS_PATH}?lastEventId=0`, token);
    expect(expired.status).toBe(401);
    expect(expired.body.status).toBe('fail');
    expect(expired.body.message).toMatch(/expired/i);
    expect((await get(s.base, FILTERED_PATH, token)).status).toBe(401);
    expect(await streamAuth(s, token)).toEqual({ type: 'AuthenticationError', code: 1008 });

    // Authenticating again gives a fresh token.
    const fresh = await authenticate(s.base, 'testuser', 'testpassword');
    expect((await get(s.base, `${EVENTS_PATH}?lastEventId=0`, fresh)).status).toBe(200);
  });

  it('refuses tampered, foreign, unsigned and unknown-user tokens with 401', async () => {
    const token = await authenticate(s.base, 'testuser', 'testpassword');
    const [header, payload, signature] = segments(token);
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as jwt.JwtPayload;
    const now = Math.floor(clock.now() / 1000);
    const flipped = signature.slice(0, -2) + (signature.endsWith('AA') ? 'BB' : 'AA');

    const bad = {
      'payload changed to another user': `${header}.${b64url({ ...claims, sub: 'alluser' })}.${signature}`,
      'exp pushed out': `${header}.${b64url({ ...claims, exp: (claims.exp ?? 0) + 10 * TTL })}.${signature}`,
      'signature altered': `${header}.${payload}.${flipped}`,
      'signature removed': `${header}.${payload}.`,
      'signed with another secret': jwt.sign({ sub: 'testuser' }, 'other-secret', { algorithm: 'HS256' }),
      'alg none': `${b64url({ alg: 'none', typ: 'JWT' })}.${payload}.`,
      'unknown user': jwt.sign({ sub: 'mallory', iat: now, exp: now + 60 }, SECRET, { algorithm: 'HS256' }),
      'no sub': jwt.sign({ iat: now, exp: now + 60 }, SECRET, { algorithm: 'HS256' }),
      'already expired': jwt.sign({ sub: 'testuser', iat: now - 100, exp: now - 10 }, SECRET, {
        algorithm: 'HS256',
      }),
    };
    for (const [name, forged] of Object.entries(bad)) {
      const res = await get(s.base, `${EVENTS_PATH}?lastEventId=0`, forged);
      expect({ name, status: res.status }).toEqual({ name, status: 401 });
      expect(res.body.status).toBe('fail');
    }
    expect(await streamAuth(s, bad['payload changed to another user'])).toEqual({
      type: 'AuthenticationError',
      code: 1008,
    });
    expect(await streamAuth(s, bad['signature altered'])).toEqual({
      type: 'AuthenticationError',
      code: 1008,
    });
  });

  it('accepts a JWT signed with the configured secret (it is really verified, not just decoded)', async () => {
    const now = Math.floor(clock.now() / 1000);
    const own = jwt.sign({ sub: 'alluser', iat: now, exp: now + 60 }, SECRET, { algorithm: 'HS256' });
    const res = await get(s.base, `${EVENTS_PATH}?lastEventId=0`, own);
    expect(res.status).toBe(200);
    expect(res.body.data?.events).toHaveLength(2);
  });

  it('still accepts the fixed tokens, however much time passes', async () => {
    clock.advance(30 * 86_400_000);
    expect((await get(s.base, `${EVENTS_PATH}?lastEventId=0`, TOKENS.testuser)).status).toBe(200);
    expect((await get(s.base, `${EVENTS_PATH}?lastEventId=0`, TOKENS.alluser)).status).toBe(200);
    expect((await streamAuth(s, TOKENS.alluser)).type).toBe('Authenticated');
  });

  it('refuses a JWT from another simulator that has its own random secret', async () => {
    const other = await startSim({ tokenMode: 'jwt' }, { clock });
    const foreign = await authenticate(other.base, 'testuser', 'testpassword');
    expect((await get(other.base, `${FILTERED_PATH}?limit=1`, foreign)).status).toBe(204);
    expect((await get(s.base, `${EVENTS_PATH}?lastEventId=0`, foreign)).status).toBe(401);
  });

  it('still answers 400/401 on authenticate as in fixed mode', async () => {
    expect((await postJson(s.base, AUTH_PATH, { key: 'testuser' })).status).toBe(400);
    expect((await postJson(s.base, AUTH_PATH, { key: 'testuser', secret: 'x' })).status).toBe(401);
  });
});

describe('token mode fixed', () => {
  it('issues the fixed token and refuses JWTs, even well-signed ones', async () => {
    const clock = new ManualClock();
    const s = await startSim({ tokenMode: 'fixed', jwtSecret: SECRET }, { clock });
    s.probe.publish(event('RaceDayTrot'));
    expect(await authenticate(s.base, 'testuser', 'testpassword')).toBe(TOKENS.testuser);
    const now = Math.floor(clock.now() / 1000);
    const signed = jwt.sign({ sub: 'testuser', iat: now, exp: now + 60 }, SECRET, { algorithm: 'HS256' });
    expect((await get(s.base, `${EVENTS_PATH}?lastEventId=0`, signed)).status).toBe(401);
    expect((await get(s.base, `${EVENTS_PATH}?lastEventId=0`, TOKENS.testuser)).status).toBe(200);
  });
});
