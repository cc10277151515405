import type { Logger } from '@racedata/core';
import { scrubSecrets } from './secrets/find-secrets';
import { secretNeedles, type SecretNeedles } from './secrets/secret-forms';
import { compileMatcher, matchSecrets, type SecretMatcher } from './secrets/secret-matcher';

/** Shorter strings occur in ordinary data by chance; no real key, secret or token is this short. */
const MIN_GUARDED_LENGTH = 4;
/**
 * Tokens remembered: an upstream that issues a new token on every authentication (or a hostile
 * one) must not grow the guard without bound; a token this many authentications old is long dead.
 */
const MAX_TOKENS = 64;

/** What a guarded string is, for the log line that says why a message was not written. */
export type CredentialKind = 'key' | 'secret' | 'key:secret' | 'token' | 'salt';

interface Guarded {
  readonly kind: CredentialKind;
  readonly needles: SecretNeedles;
}

/** Which credential a text holds and in which form (never the credential itself). */
export interface CredentialFound {
  readonly credential: CredentialKind;
  readonly form: string;
}

/**
 * Everything the recorder must never write: the key, the secret, `key:secret` (what a Basic
 * header encodes), the salt and the tokens an upstream issued. Lines and log records are checked
 * against it as they leave the process, in every form secrets/secret-forms.ts defines (escaped in
 * JSON or XML, URL-encoded, base64, case-changed where that tells), so no code path (an upstream
 * echoing a secret in a payload, an error, a header) can leak one.
 */
export class SecretGuard {
  private readonly fixed = new Map<string, Guarded>();
  private readonly tokens = new Map<string, Guarded>();
  /** Rebuilt after a change: one scan a reading finds every credential at once. */
  private compiled: { guarded: Guarded[]; matcher: SecretMatcher } | undefined;

  add(secret: string | undefined, kind: CredentialKind = 'secret'): void {
    if (secret === undefined || secret.length < MIN_GUARDED_LENGTH) return;
    const into = kind === 'token' ? this.tokens : this.fixed;
    if (this.fixed.has(secret)) return;
    into.delete(secret);
    into.set(secret, { kind, needles: secretNeedles(secret) });
    if (this.tokens.size > MAX_TOKENS) this.tokens.delete(this.tokens.keys().next().value as string);
    this.compiled = undefined;
  }

  /** The first credential `text` holds, in any form; undefined when it holds none. */
  find(text: string): CredentialFound | undefined {
    const { guarded, matcher } = this.matcher();
    if (guarded.length === 0) return undefined;
    const [match] = matchSecrets(text, matcher, true);
    if (match === undefined) return undefined;
    return { credential: (guarded[match.secret] as Guarded).kind, form: match.form };
  }

  contains(text: string): boolean {
    return this.find(text) !== undefined;
  }

  /** `text` with every credential cut out (the whole text when one is there only escaped). */
  scrub(text: string): string {
    if (!this.contains(text)) return text;
    return scrubSecrets(
      text,
      this.matcher().guarded.map((g) => g.needles),
    ).replace(/\[secret\]/g, '[redacted]');
  }

  private matcher(): { guarded: Guarded[]; matcher: SecretMatcher } {
    if (this.compiled === undefined) {
      const guarded = [...this.fixed.values(), ...this.tokens.values()];
      this.compiled = { guarded, matcher: compileMatcher(guarded.map((g) => g.needles)) };
    }
    return this.compiled;
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
