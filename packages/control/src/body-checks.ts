import { coreError } from '@racedata/core';

/** The control plane's answer to a bad body, parameter or path: 400 with what is wrong. */
export const invalid = (message: string) => coreError('VALIDATION_FAILED', message);

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Refuses a key outside `allowed`, naming it and the known ones: a typo never passes silently. */
export function onlyKeys(value: Record<string, unknown>, allowed: readonly string[], what: string): void {
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) {
      throw invalid(`unknown ${what} key "${key.slice(0, 40)}"; known: ${allowed.join(', ') || 'none'}`);
    }
  }
}

/** A percent-encoded path segment or cookie value; malformed encoding (`%zz`) is a 400, not a throw. */
export function decodeSegment(text: string, what: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw invalid(`${what} is not valid percent-encoding`);
  }
}

/**
 * True when reading the request failed because the client hung up mid-body (Node's "aborted",
 * ECONNRESET): nobody is left to answer, and it is the client's doing, not a server error to log.
 */
export function clientHungUp(req: { readonly complete: boolean }, err: unknown): boolean {
  return !req.complete && (err as { code?: unknown } | null)?.code === 'ECONNRESET';
}
