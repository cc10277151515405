import type { RequestHandler, Response } from 'express';
import type { TokenService, User } from '@racedata/core';

/** Rejects requests without a valid bearer token (401); passes the user on in res.locals. */
export function requireUser(tokens: TokenService): RequestHandler {
  return (req, res, next) => {
    res.locals.user = tokens.verifyAuthorization(req.headers.authorization);
    next();
  };
}

export function userOf(res: Response): User {
  return res.locals.user as User;
}
