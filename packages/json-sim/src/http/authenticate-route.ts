import type { RequestHandler } from 'express';
import { checkCredentials, type TokenService, type UserTable } from '@racedata/core';

/** POST /customerapi/authenticate/subscription: token in the `authorization` header (4.1). */
export function authenticateRoute(users: UserTable, tokens: TokenService): RequestHandler {
  return (req, res) => {
    const user = checkCredentials(req.body, users);
    res.setHeader('authorization', `Bearer ${tokens.issue(user)}`);
    res.json({ status: 'success' });
  };
}
