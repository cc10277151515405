import { coreError } from './errors';
import type { User, UserTable } from './users';

/**
 * Checks an authentication body `{"key", "secret"}` (interface 2.1): 400 for a missing, blank
 * or non-string field, 401 for a wrong pair.
 */
export function checkCredentials(body: unknown, users: UserTable): User {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw coreError('VALIDATION_FAILED', 'body must be a JSON object {"key": "...", "secret": "..."}');
  }
  const { key, secret } = body as Record<string, unknown>;
  for (const [name, value] of [
    ['key', key],
    ['secret', secret],
  ] as const) {
    if (value === undefined) throw coreError('VALIDATION_FAILED', `${name} is required`);
    if (typeof value !== 'string') throw coreError('VALIDATION_FAILED', `${name} must be a string`);
    if (value.trim() === '') throw coreError('VALIDATION_FAILED', `${name} must not be blank`);
  }
  const user = users.authenticate(key as string, secret as string);
  if (!user) throw coreError('CREDENTIALS_INVALID', 'wrong key or secret');
  return user;
}
