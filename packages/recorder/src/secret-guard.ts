import type { Logger } from '@racedata/core';

/** Shorter strings occur in ordinary data by chance; no real key, secret or token is this short. */
const MIN_GUARDED_LENGTH = 4;
const REDACTED = '[redacted]';

/**
 * Everything the recorder must never write: the key, the secret, the salt and every token an
 * upstream issued. Lines and log records are checked against it as they leave the process, so
 * no code path (an upstream echoing a token in an error, a payload that holds one) can leak one.
 */
export class SecretGuard {
  private readonly secrets = new Set<string>();

  add(secret: string | undefined): void {
    if (secret === undefined || secret.length < MIN_GUARDED_LENGTH) return;
    this.secrets.add(secret);
    // A token or key also travels as Basic credentials and URL-encoded; both forms are guarded too.
    const encoded = encodeURIComponent(secret);
    if (encoded !== secret) this.secrets.add(encoded);
  }

  contains(text: string): boolean {
    for (const secret of this.secrets) if (text.includes(secret)) return true;
    return false;
  }

  scrub(text: string): string {
    let out = text;
    for (const secret of this.secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    return out;
  }
}

function scrubValue(guard: SecretGuard, value: unknown, depth: number): unknown {
  if (typeof value === 'string') return guard.scrub(value);
  if (depth > 5 || value === null || typeof value !== 'object') return value;
  if (value instanceof Error) return guard.scrub(value.message);
  if (Array.isArray(value)) return value.map((item) => scrubValue(guard, item, depth + 1));
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([key, item]) => [
      key,
      scrubValue(guard, item, depth + 1),
    ]),
  );
}

/** A logger whose every string (message, field, nested field, error message) passed the guard. */
export function guardedLogger(logger: Logger, guard: SecretGuard): Logger {
  const level =
    (name: 'debug' | 'info' | 'warn' | 'error') =>
    (obj: object | string, msg?: string): void => {
      const fields = typeof obj === 'string' ? guard.scrub(obj) : (scrubValue(guard, obj, 0) as object);
      if (msg === undefined) logger[name](fields);
      else logger[name](fields, guard.scrub(msg));
    };
  return {
    debug: level('debug'),
    info: level('info'),
    warn: level('warn'),
    error: level('error'),
    child: (bindings) =>
      guardedLogger(logger.child(scrubValue(guard, bindings, 0) as Record<string, unknown>), guard),
  };
}
