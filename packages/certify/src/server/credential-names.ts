import type { IncomingMessage } from 'node:http';
import type { AuthScheme } from '../types';

/** The users the certify server knows, by key and by fixed token. */
export interface KnownUsers {
  readonly keys: ReadonlySet<string>;
  readonly fixedTokens: ReadonlyMap<string, string>;
}

/**
 * How a request authenticated and whom it named, read from its Authorization header. The
 * credential itself goes no further than this function: only the scheme and a known key leave.
 * A JWT is named by its `sub` claim unverified: the simulator decides whether it is valid, the
 * report only says whose it claimed to be.
 */
export function nameCredential(req: IncomingMessage, users: KnownUsers): { auth: AuthScheme; user?: string } {
  const header = req.headers.authorization;
  if (header === undefined || header.trim() === '') return { auth: 'none' };
  const space = header.indexOf(' ');
  const scheme = (space < 0 ? header : header.slice(0, space)).toLowerCase();
  const value = space < 0 ? '' : header.slice(space + 1).trim();
  if (scheme === 'bearer') return named('bearer', bearerUser(value, users), users);
  if (scheme === 'basic') return named('basic', basicUser(value), users);
  return { auth: 'other' };
}

function named(auth: AuthScheme, key: string | undefined, users: KnownUsers) {
  return key !== undefined && users.keys.has(key) ? { auth, user: key } : { auth };
}

function bearerUser(token: string, users: KnownUsers): string | undefined {
  const fixed = users.fixedTokens.get(token);
  if (fixed !== undefined) return fixed;
  const payload = token.split('.')[1];
  if (payload === undefined) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as unknown;
    const sub = (claims as { sub?: unknown } | null)?.sub;
    return typeof sub === 'string' ? sub : undefined;
  } catch {
    // Not a JWT at all: a bearer that names nobody.
    return undefined;
  }
}

function basicUser(value: string): string | undefined {
  const decoded = Buffer.from(value, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : decoded.slice(0, colon);
}

/** Query parameters that could carry a credential are left out of the traffic altogether. */
const SECRET_PARAMS = /token|key|secret|pass|auth|sig|jwt/i;

export function safeQuery(search: URLSearchParams): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [name, value] of search) {
    if (!SECRET_PARAMS.test(name)) query[name] = value;
  }
  return query;
}
