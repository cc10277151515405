import express, { type RequestHandler } from 'express';
import { checkCredentials, parseBasicCredentials, type TokenService, type UserTable } from '@racedata/core';
import { legacySimError } from '../errors';

export interface AuthenticateDeps {
  users: UserTable;
  tokens: TokenService;
  maxBodyBytes: number;
}

/**
 * JSON bodies are read whatever the content type says: `curl -d '{...}'` labels them
 * application/x-www-form-urlencoded unless told otherwise.
 */
function jsonBody(maxBodyBytes: number): RequestHandler {
  return express.json({ type: () => true, limit: maxBodyBytes });
}

/** POST /customerapi/authenticate/subscription[/]: `{"key","secret"}` (interface 4.1). */
export function subscriptionAuthenticate(deps: AuthenticateDeps): RequestHandler[] {
  return [
    jsonBody(deps.maxBodyBytes),
    (req, res) => {
      const user = checkCredentials(req.body, deps.users);
      res.setHeader('authorization', `Bearer ${deps.tokens.issue(user)}`);
      res.json({ status: 'success' });
    },
  ];
}

/**
 * POST /authenticate: the vendor simulator's shortened path with HTTP Basic credentials. A
 * request without an Authorization header may send the JSON body of the long path instead.
 */
export function basicAuthenticate(deps: AuthenticateDeps): RequestHandler[] {
  return [
    express.json({ type: (req) => req.headers.authorization === undefined, limit: deps.maxBodyBytes }),
    (req, res) => {
      const header = req.headers.authorization;
      let body: unknown = req.body;
      if (header !== undefined) {
        const basic = parseBasicCredentials(header);
        if (!basic) {
          throw legacySimError('BAD_REQUEST', 'expected "Authorization: Basic base64(key:secret)"');
        }
        body = basic;
      } else if (body === undefined) {
        throw legacySimError(
          'BAD_REQUEST',
          'send "Authorization: Basic base64(key:secret)" or a JSON body {"key": "...", "secret": "..."}',
        );
      }
      const user = checkCredentials(body, deps.users);
      res.setHeader('authorization', `Bearer ${deps.tokens.issue(user)}`);
      res.json({ status: 'success' });
    },
  ];
}
