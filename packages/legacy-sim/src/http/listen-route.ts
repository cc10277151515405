import type { RequestHandler } from 'express';
import type { TokenService } from '@racedata/core';
import type { ListenEndpoint } from './listen-poll';

/**
 * GET /customerapi/channels/listen through express: the token is checked here (a bad one goes to
 * the error middleware), the poll itself is the ListenEndpoint's. The server's request listener
 * serves most listens without express (direct-listen.ts); this route answers the rest.
 */
export function listenRoute(tokens: TokenService, listen: ListenEndpoint): RequestHandler {
  return (req, res) => {
    listen.serve(req, res, tokens.verifyAuthorization(req.headers.authorization));
  };
}
