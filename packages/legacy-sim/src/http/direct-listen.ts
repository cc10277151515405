import type { RequestListener } from 'node:http';
import type { Express } from 'express';
import type { TokenService, User } from '@racedata/core';
import type { Delivery } from './delivery';
import type { ListenEndpoint } from './listen-poll';

export const LISTEN_PATH = '/customerapi/channels/listen';

export interface DirectListenDeps {
  app: Express;
  /** Where every request that is not a clean listen goes (the app, or a listener before it). */
  others?: RequestListener;
  tokens: TokenService;
  listen: ListenEndpoint;
  delivery: Delivery;
}

/**
 * The server's request listener: GET /customerapi/channels/listen, which every client sends
 * again as soon as it is answered, is served here without express's per-request machinery
 * (request and response prototypes, router layer matching, the middleware chain), by the same
 * ListenEndpoint as the express route. Only a clean GET qualifies: exactly the path, with or
 * without a query (which the endpoint ignores, as it ignores conditional and range headers), and
 * a valid token. Everything else, errors included, goes to the express app untouched, which
 * answers it as it always has; the bytes of an answer are the same on both paths.
 */
export function directListen(deps: DirectListenDeps): RequestListener {
  const { tokens, listen, delivery } = deps;
  const others = deps.others ?? deps.app;
  return (req, res) => {
    // What the app's confirmOnNextRequest middleware does, for requests that never reach it.
    delivery.confirmEarlier(req.socket);
    const url = req.url ?? '';
    if (
      req.method !== 'GET' ||
      !url.startsWith(LISTEN_PATH) ||
      (url.length > LISTEN_PATH.length && url[LISTEN_PATH.length] !== '?') ||
      url.includes('#')
    ) {
      others(req, res);
      return;
    }
    let user: User;
    try {
      user = tokens.verifyAuthorization(req.headers.authorization);
    } catch {
      others(req, res);
      return;
    }
    listen.serve(req, res, user);
  };
}
