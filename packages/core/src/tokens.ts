import { randomBytes } from 'node:crypto';
import type * as Jwt from 'jsonwebtoken';
import type { Clock } from './clock';
import { coreError } from './errors';
import type { TokenMode } from './settings';
import type { User, UserTable } from './users';

export interface TokenServiceOptions {
  users: UserTable;
  mode: TokenMode;
  ttlSeconds: number;
  /** HS256 key; a random one when omitted (JWTs then die with the process, like a real restart). */
  secret?: string | undefined;
  clock: Clock;
}

/**
 * jsonwebtoken, loaded the first time jwt mode needs it: with its dependencies (jws, semver,
 * lodash helpers) it is a noticeable share of start-up, and fixed-token mode (the default)
 * never uses it.
 */
let jwtModule: typeof Jwt | undefined;
function jwtLibrary(): typeof Jwt {
  // A require() call rather than an import so the module loads on first use, not at start-up
  // (esbuild keeps it lazy in the bundle too).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  jwtModule ??= require('jsonwebtoken') as typeof Jwt;
  return jwtModule;
}

/** `Bearer <token>` (scheme case-insensitive) -> token; anything else -> undefined. */
export function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const match = /^\s*Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/** `Basic base64(key:secret)` -> credentials; the secret may itself contain colons. */
export function parseBasicCredentials(
  header: string | undefined,
): { key: string; secret: string } | undefined {
  const match = header === undefined ? null : /^\s*Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return undefined;
  return { key: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}

/**
 * Issues and checks bearer tokens. Fixed tokens (users table) are valid in every mode, so test
 * suites can hard-code them; jwt mode additionally issues real expiring HS256 tokens.
 */
export class TokenService {
  /** Made on the first JWT: fixed tokens never need it, and crypto costs a start milliseconds to load. */
  private signingSecret: string | undefined;
  /**
   * POST /_sim/tokens/expire: a JWT carries its user's generation (`gen`) and only the current
   * one is accepted; a fixed token is refused until its user authenticates again (the fixed
   * token never changes, so re-issuing it is what lifts the expiry).
   */
  private readonly generation = new Map<string, number>();
  private readonly expiredFixed = new Set<string>();

  constructor(private readonly options: TokenServiceOptions) {}

  private get secret(): string {
    return (this.signingSecret ??= this.options.secret ?? randomBytes(32).toString('hex'));
  }

  get mode(): TokenMode {
    return this.options.mode;
  }

  issue(user: User): string {
    this.expiredFixed.delete(user.key);
    if (this.options.mode === 'fixed') return user.token;
    const iat = Math.floor(this.options.clock.now() / 1000);
    const gen = this.generation.get(user.key) ?? 0;
    return jwtLibrary().sign({ sub: user.key, iat, exp: iat + this.options.ttlSeconds, gen }, this.secret, {
      algorithm: 'HS256',
    });
  }

  /** Every token issued so far to these users answers 401 TOKEN_EXPIRED from now on. */
  expire(users: readonly User[]): void {
    for (const user of users) {
      this.generation.set(user.key, (this.generation.get(user.key) ?? 0) + 1);
      this.expiredFixed.add(user.key);
    }
  }

  /** Lifts every expiry POST /_sim/tokens/expire set (reset); returns how many users had one. */
  clearExpiries(): number {
    const count = this.expiredFixed.size;
    this.expiredFixed.clear();
    // Generations stay: a JWT from before the expiry must not come back to life.
    return count;
  }

  /** The user behind an `authorization` header, or a 401 SimError saying what is wrong. */
  verifyAuthorization(header: string | undefined): User {
    if (header === undefined || header.trim() === '') {
      throw coreError('TOKEN_MISSING', 'missing authorization header; send "Authorization: Bearer <token>"');
    }
    const token = bearerToken(header);
    if (token === undefined) {
      throw coreError('TOKEN_INVALID', 'malformed authorization header; expected "Bearer <token>"');
    }
    return this.verifyToken(token);
  }

  verifyToken(token: string): User {
    const fixed = this.options.users.byToken(token);
    if (fixed) {
      if (this.expiredFixed.has(fixed.key)) throw expired();
      return fixed;
    }
    if (this.options.mode !== 'jwt' || token.split('.').length !== 3) {
      throw coreError('TOKEN_INVALID', 'unknown token');
    }
    const jwt = jwtLibrary();
    let claims: Jwt.JwtPayload | string;
    try {
      claims = jwt.verify(token, this.secret, {
        algorithms: ['HS256'],
        clockTimestamp: Math.floor(this.options.clock.now() / 1000),
      });
    } catch (err) {
      if (err instanceof jwt.TokenExpiredError) throw expired();
      throw coreError('TOKEN_INVALID', 'invalid token');
    }
    const user = typeof claims === 'object' && claims.sub ? this.options.users.byKey(claims.sub) : undefined;
    if (!user) throw coreError('TOKEN_INVALID', 'token names no known user');
    const gen = typeof claims === 'object' && typeof claims.gen === 'number' ? claims.gen : 0;
    if (gen !== (this.generation.get(user.key) ?? 0)) throw expired();
    return user;
  }
}

function expired() {
  return coreError('TOKEN_EXPIRED', 'token expired; authenticate again');
}
