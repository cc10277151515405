import jwt from 'jsonwebtoken';
import { TOKENS } from '@racedata/test-support';
import {
  bearerToken,
  ChannelCatalog,
  ManualClock,
  parseBasicCredentials,
  SimError,
  TokenService,
  UserTable,
  type TokenMode,
} from '@racedata/core';
import { SAMPLE_CHANNELS, SAMPLE_USERS } from './sample-description';

const users = UserTable.fromJSON(SAMPLE_USERS, ChannelCatalog.fromJSON(SAMPLE_CHANNELS));
const testuser = users.byKey('testuser')!;
const alluser = users.byKey('alluser')!;
const SECRET = 'unit-test-secret';
const TTL = 3600;

const b64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** Runs fn and returns the SimError it throws (failing the test when it throws anything else). */
function simError(fn: () => unknown): SimError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(SimError);
    return err as SimError;
  }
  throw new Error('expected a SimError, nothing was thrown');
}

function expectAuthError(fn: () => unknown, code: string): SimError {
  const err = simError(fn);
  expect(err.code).toBe(code);
  expect(err.status).toBe(401);
  expect(err.message.length).toBeGreaterThan(0);
  return err;
}

describe('TokenService', () => {
  let clock: ManualClock;
  const service = (mode: TokenMode, secret = SECRET) =>
    new TokenService({ users, mode, ttlSeconds: TTL, secret, clock });

  beforeEach(() => {
    clock = new ManualClock(Date.UTC(2026, 5, 1, 12, 0, 0, 700));
  });

  describe('expire (POST /_sim/tokens/expire)', () => {
    test('a JWT issued before the expiry answers TOKEN_EXPIRED; one issued after works; other users unaffected', () => {
      const tokens = service('jwt');
      const before = tokens.issue(testuser);
      const other = tokens.issue(alluser);
      tokens.expire([testuser]);
      expectAuthError(() => tokens.verifyToken(before), 'TOKEN_EXPIRED');
      expect(tokens.verifyToken(other)).toBe(alluser);
      expect(tokens.verifyToken(tokens.issue(testuser))).toBe(testuser);
      // Lifting expiries on reset never revives a token from before the expiry.
      tokens.clearExpiries();
      expectAuthError(() => tokens.verifyToken(before), 'TOKEN_EXPIRED');
    });

    test('a fixed token answers TOKEN_EXPIRED until its user authenticates again', () => {
      const tokens = service('fixed');
      tokens.expire([testuser, alluser]);
      expectAuthError(() => tokens.verifyToken(testuser.token), 'TOKEN_EXPIRED');
      expect(tokens.issue(testuser)).toBe(testuser.token);
      expect(tokens.verifyToken(testuser.token)).toBe(testuser);
      expectAuthError(() => tokens.verifyToken(alluser.token), 'TOKEN_EXPIRED');
      expect(tokens.clearExpiries()).toBe(1);
      expect(tokens.verifyToken(alluser.token)).toBe(alluser);
    });
  });

  describe('fixed mode', () => {
    test('issues the user fixed token', () => {
      const tokens = service('fixed');
      expect(tokens.mode).toBe('fixed');
      expect(tokens.issue(testuser)).toBe(TOKENS.testuser);
      expect(tokens.issue(alluser)).toBe(TOKENS.alluser);
    });

    test('accepts fixed tokens forever', () => {
      const tokens = service('fixed');
      expect(tokens.verifyToken(TOKENS.testuser)).toBe(testuser);
      clock.advance(10 * 365 * 86_400_000);
      expect(tokens.verifyAuthorization(`Bearer ${TOKENS.alluser}`)).toBe(alluser);
    });

    test('refuses unknown tokens and even valid-looking JWTs', () => {
      const tokens = service('fixed');
      expectAuthError(() => tokens.verifyToken('nope'), 'TOKEN_INVALID');
      const signed = service('jwt').issue(testuser);
      expectAuthError(() => tokens.verifyToken(signed), 'TOKEN_INVALID');
    });
  });

  describe('jwt mode', () => {
    test('issues an HS256 JWT with sub = user key and exp = iat + ttl (iat from the clock)', () => {
      const token = service('jwt').issue(testuser);
      const decoded = jwt.decode(token, { complete: true });
      expect(decoded?.header).toMatchObject({ alg: 'HS256', typ: 'JWT' });
      const iat = Math.floor(clock.now() / 1000);
      expect(decoded?.payload).toEqual({ sub: 'testuser', iat, exp: iat + TTL, gen: 0 });
      // Really signed with the configured secret.
      expect(jwt.verify(token, SECRET, { algorithms: ['HS256'], clockTimestamp: iat })).toMatchObject({
        sub: 'testuser',
      });
    });

    test('the issued token verifies back to the user, alone or in a Bearer header', () => {
      const tokens = service('jwt');
      const token = tokens.issue(alluser);
      expect(token).not.toBe(alluser.token);
      expect(tokens.verifyToken(token)).toBe(alluser);
      expect(tokens.verifyAuthorization(`Bearer ${token}`)).toBe(alluser);
    });

    test('fixed tokens stay valid in jwt mode', () => {
      const tokens = service('jwt');
      expect(tokens.mode).toBe('jwt');
      expect(tokens.verifyAuthorization(`Bearer ${TOKENS.testuser}`)).toBe(testuser);
    });

    test('valid until just before exp, TOKEN_EXPIRED from exp on', () => {
      const tokens = service('jwt');
      const token = tokens.issue(testuser);
      clock.advance(TTL * 1000 - 1000);
      expect(tokens.verifyToken(token)).toBe(testuser);
      clock.advance(1000);
      const err = expectAuthError(() => tokens.verifyToken(token), 'TOKEN_EXPIRED');
      expect(err.message).toMatch(/expired/i);
      clock.advance(86_400_000);
      expectAuthError(() => tokens.verifyAuthorization(`Bearer ${token}`), 'TOKEN_EXPIRED');
    });

    test('a fresh token can be issued after expiry', () => {
      const tokens = service('jwt');
      const old = tokens.issue(testuser);
      clock.advance((TTL + 1) * 1000);
      const fresh = tokens.issue(testuser);
      expect(fresh).not.toBe(old);
      expect(tokens.verifyToken(fresh)).toBe(testuser);
    });

    test('a tampered signature is TOKEN_INVALID', () => {
      const tokens = service('jwt');
      const [header, payload, signature] = tokens.issue(testuser).split('.') as [string, string, string];
      const middle = Math.floor(signature.length / 2);
      const flipped = signature[middle] === 'A' ? 'B' : 'A';
      const forged = `${header}.${payload}.${signature.slice(0, middle)}${flipped}${signature.slice(middle + 1)}`;
      expectAuthError(() => tokens.verifyToken(forged), 'TOKEN_INVALID');
    });

    test('a tampered payload (another sub, later exp) is TOKEN_INVALID', () => {
      const tokens = service('jwt');
      const [header, , signature] = tokens.issue(testuser).split('.') as [string, string, string];
      const iat = Math.floor(clock.now() / 1000);
      const forged = `${header}.${b64url({ sub: 'alluser', iat, exp: iat + 10 * TTL })}.${signature}`;
      expectAuthError(() => tokens.verifyToken(forged), 'TOKEN_INVALID');
    });

    test('a JWT signed with another secret is TOKEN_INVALID', () => {
      const tokens = service('jwt');
      const iat = Math.floor(clock.now() / 1000);
      const foreign = jwt.sign({ sub: 'testuser', iat, exp: iat + TTL }, 'some-other-secret', {
        algorithm: 'HS256',
      });
      expectAuthError(() => tokens.verifyToken(foreign), 'TOKEN_INVALID');
      expectAuthError(
        () => service('jwt', 'some-other-secret-2').verifyToken(tokens.issue(testuser)),
        'TOKEN_INVALID',
      );
    });

    test('alg "none" is refused', () => {
      const tokens = service('jwt');
      const iat = Math.floor(clock.now() / 1000);
      const unsigned = `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url({ sub: 'testuser', iat, exp: iat + TTL })}.`;
      expectAuthError(() => tokens.verifyToken(unsigned), 'TOKEN_INVALID');
    });

    test('another algorithm with the same secret (HS512) is refused', () => {
      const tokens = service('jwt');
      const iat = Math.floor(clock.now() / 1000);
      const hs512 = jwt.sign({ sub: 'testuser', iat, exp: iat + TTL }, SECRET, { algorithm: 'HS512' });
      expectAuthError(() => tokens.verifyToken(hs512), 'TOKEN_INVALID');
    });

    test('a correctly signed JWT for an unknown user, or without sub, is TOKEN_INVALID', () => {
      const tokens = service('jwt');
      const iat = Math.floor(clock.now() / 1000);
      const ghost = jwt.sign({ sub: 'ghost', iat, exp: iat + TTL }, SECRET, { algorithm: 'HS256' });
      expectAuthError(() => tokens.verifyToken(ghost), 'TOKEN_INVALID');
      const anonymous = jwt.sign({ iat, exp: iat + TTL }, SECRET, { algorithm: 'HS256' });
      expectAuthError(() => tokens.verifyToken(anonymous), 'TOKEN_INVALID');
    });

    test.each(['garbage', 'a.b', 'a.b.c', 'a.b.c.d', '..', ''])('junk token %j is TOKEN_INVALID', (token) => {
      expectAuthError(() => service('jwt').verifyToken(token), 'TOKEN_INVALID');
    });

    test('without a configured secret each service signs with its own random key', () => {
      const a = new TokenService({ users, mode: 'jwt', ttlSeconds: TTL, clock });
      const b = new TokenService({ users, mode: 'jwt', ttlSeconds: TTL, clock });
      const token = a.issue(testuser);
      expect(a.verifyToken(token)).toBe(testuser);
      expectAuthError(() => b.verifyToken(token), 'TOKEN_INVALID');
    });
  });

  describe('verifyAuthorization', () => {
    test.each([undefined, '', '   '])('a missing or blank header (%j) is TOKEN_MISSING', (header) => {
      for (const mode of ['fixed', 'jwt'] as const) {
        expectAuthError(() => service(mode).verifyAuthorization(header), 'TOKEN_MISSING');
      }
    });

    test.each([
      TOKENS.testuser,
      `Basic ${TOKENS.testuser}`,
      'Bearer',
      'Bearer ',
      `Token ${TOKENS.testuser}`,
      'Bearer a b',
    ])('a header that is not "Bearer <token>" (%j) is TOKEN_INVALID', (header) => {
      expectAuthError(() => service('jwt').verifyAuthorization(header), 'TOKEN_INVALID');
    });

    test('the scheme is case-insensitive and surrounding spaces are allowed', () => {
      const tokens = service('fixed');
      expect(tokens.verifyAuthorization(`bearer ${TOKENS.testuser}`)).toBe(testuser);
      expect(tokens.verifyAuthorization(`BEARER   ${TOKENS.testuser}  `)).toBe(testuser);
    });

    test('the token itself is case-sensitive', () => {
      expectAuthError(() => service('fixed').verifyAuthorization('Bearer DGVZDHVZZXI='), 'TOKEN_INVALID');
    });
  });

  test('fixed tokens are looked up in the given user table only', () => {
    const other = new UserTable([
      { name: 'x', key: 'x', secret: 'y', token: 'only-here', channels: new Set<string>() },
    ]);
    const tokens = new TokenService({ users: other, mode: 'fixed', ttlSeconds: TTL, clock });
    expect(tokens.verifyToken('only-here').key).toBe('x');
    expectAuthError(() => tokens.verifyToken(TOKENS.testuser), 'TOKEN_INVALID');
  });
});

describe('bearerToken', () => {
  test.each([
    ['Bearer abc', 'abc'],
    ['bearer abc', 'abc'],
    ['BeArEr abc', 'abc'],
    ['Bearer   abc', 'abc'],
    ['  Bearer abc  ', 'abc'],
    ['Bearer\tabc', 'abc'],
    ['Bearer a.b.c', 'a.b.c'],
    [`Bearer ${TOKENS.testuser}`, TOKENS.testuser],
  ])('%j -> %j', (header, token) => {
    expect(bearerToken(header)).toBe(token);
  });

  test.each([undefined, '', 'Bearer', 'Bearer ', 'Bearerabc', 'Basic abc', 'abc', 'Bearer a b', 'Token abc'])(
    '%j -> undefined',
    (header) => {
      expect(bearerToken(header)).toBeUndefined();
    },
  );
});

describe('parseBasicCredentials', () => {
  const basic = (text: string) => `Basic ${Buffer.from(text, 'utf8').toString('base64')}`;

  test('decodes key and secret', () => {
    expect(parseBasicCredentials(basic('testuser:testpassword'))).toEqual({
      key: 'testuser',
      secret: 'testpassword',
    });
  });

  test('splits at the first colon: the secret may contain colons', () => {
    expect(parseBasicCredentials(basic('key:se:cr:et'))).toEqual({ key: 'key', secret: 'se:cr:et' });
    expect(parseBasicCredentials(basic('key::'))).toEqual({ key: 'key', secret: ':' });
  });

  test('an empty secret is returned as such (the caller decides it is blank)', () => {
    expect(parseBasicCredentials(basic('key:'))).toEqual({ key: 'key', secret: '' });
  });

  test('decodes UTF-8', () => {
    expect(parseBasicCredentials(basic('nyckel:lösenord€'))).toEqual({ key: 'nyckel', secret: 'lösenord€' });
  });

  test('scheme is case-insensitive and surrounding spaces are allowed', () => {
    const encoded = Buffer.from('a:b').toString('base64');
    expect(parseBasicCredentials(`basic ${encoded}`)).toEqual({ key: 'a', secret: 'b' });
    expect(parseBasicCredentials(`  BASIC   ${encoded}  `)).toEqual({ key: 'a', secret: 'b' });
  });

  test.each([
    ['undefined', undefined],
    ['empty', ''],
    ['scheme only', 'Basic'],
    ['scheme and space', 'Basic '],
    ['wrong scheme', `Bearer ${Buffer.from('a:b').toString('base64')}`],
    ['no scheme', Buffer.from('a:b').toString('base64')],
    ['no colon', `Basic ${Buffer.from('justakey').toString('base64')}`],
    ['empty key', `Basic ${Buffer.from(':secret').toString('base64')}`],
    ['characters outside base64', 'Basic !!!!'],
    ['two words', `Basic ${Buffer.from('a:b').toString('base64')} extra`],
    ['not even base64 of anything with a colon', 'Basic abc'],
  ])('%s -> undefined', (_why, header) => {
    expect(parseBasicCredentials(header)).toBeUndefined();
  });
});
