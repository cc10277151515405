import type { Clock } from '@racedata/core';

/** The longest pause a Retry-After may ask of us; a larger one is read as this. */
export const MAX_RETRY_AFTER_MS = 5 * 60_000;

/**
 * A Retry-After header in ms: delta-seconds or an HTTP date (RFC 9110 10.2.3); undefined when
 * absent or unreadable, so the caller falls back to its own back-off.
 */
export function retryAfterMs(header: string | null | undefined, nowMs: number): number | undefined {
  if (header === null || header === undefined || header.trim() === '') return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Math.min(Number(text) * 1000, MAX_RETRY_AFTER_MS);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.min(Math.max(0, date - nowMs), MAX_RETRY_AFTER_MS);
}

/**
 * Exponential back-off for one transport: each failure doubles the pause up to the cap, a
 * success starts over. An upstream that says how long to wait (Retry-After) is taken at its word.
 */
export class Backoff {
  private failures = 0;

  constructor(
    private readonly baseMs = 250,
    private readonly maxMs = 30_000,
  ) {}

  /** The pause before the next attempt after a failure. */
  next(retryAfter?: number): number {
    this.failures++;
    if (retryAfter !== undefined) return retryAfter;
    return Math.min(this.maxMs, this.baseMs * 2 ** Math.min(this.failures - 1, 20));
  }

  reset(): void {
    this.failures = 0;
  }
}

/** Resolves after `ms` on the clock, or at once when `signal` aborts (never rejects). */
export function pause(clock: Clock, ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      timer.cancel();
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = clock.setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
