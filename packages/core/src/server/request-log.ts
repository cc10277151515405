import type { IncomingMessage, RequestListener } from 'node:http';
import { monotonicMs } from '../clock';
import type { Logger } from '../logger';
import { bearerToken, parseBasicCredentials, type TokenService } from '../tokens';

export interface RequestLogDeps {
  readonly logger: Logger;
  /** Names the user behind a request's bearer token. */
  readonly tokens: TokenService;
}

/**
 * LOG_REQUESTS: one info line per request once its answer is done (or the client left), with
 * method, path (no query: it may carry secrets), status, user and ms. Only installed when the
 * setting is on, so with it off the request path has nothing added to it.
 */
export function withRequestLog(inner: RequestListener, deps: RequestLogDeps): RequestListener {
  const { logger, tokens } = deps;
  return (req, res) => {
    const start = monotonicMs();
    const method = req.method ?? '';
    const url = req.url ?? '';
    const query = url.indexOf('?');
    const path = query < 0 ? url : url.slice(0, query);
    res.once('close', () => {
      const status = res.writableFinished ? res.statusCode : 'aborted';
      const user = typeof status === 'number' && status < 400 ? userOf(req, tokens) : undefined;
      const ms = Math.round((monotonicMs() - start) * 10) / 10;
      logger.info({ method, path, status, ...(user !== undefined && { user }), ms }, 'request');
    });
    inner(req, res);
  };
}

/** The key of the user a successful request authenticated as, by bearer token or Basic credentials. */
function userOf(req: IncomingMessage, tokens: TokenService): string | undefined {
  const header = req.headers.authorization;
  if (header === undefined) return undefined;
  const token = bearerToken(header);
  if (token === undefined) return parseBasicCredentials(header)?.key;
  try {
    return tokens.verifyToken(token).key;
  } catch {
    // The control token, or a token the route did not ask for: the request was nobody's.
    return undefined;
  }
}

/**
 * What a session settled in its own handshake, after the upgrade (STOMP's CONNECT: version and
 * heart-beats), as flat fields of the log line so a reader can filter on them.
 */
export type SessionTerms = Readonly<Record<string, string | number>>;

/** The session half of LOG_REQUESTS: WebSocket and STOMP sessions of authenticated users. */
export interface SessionLog {
  opened(user: string, transport: string): void;
  /** Only for a transport with a handshake of its own after the upgrade. */
  connected(user: string, transport: string, terms: SessionTerms): void;
  closed(user: string, transport: string, code: number): void;
}

/** Undefined when LOG_REQUESTS is off, so a session pays one optional call and no more. */
export function sessionLog(logger: Logger, on: boolean): SessionLog | undefined {
  if (!on) return undefined;
  return {
    opened: (user, transport) => logger.info({ user, transport }, 'session open'),
    // Terms first: a term can never pass itself off as the user or the transport.
    connected: (user, transport, terms) => logger.info({ ...terms, user, transport }, 'session connected'),
    closed: (user, transport, code) => logger.info({ user, transport, code }, 'session closed'),
  };
}
