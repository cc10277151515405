import type { Clock } from '@racedata/core';

/** The part of fetch the recorder uses; tests may hand in their own. */
export type FetchFn = (url: string, init: RequestInit) => Promise<Response>;

export interface HttpAnswer {
  readonly status: number;
  readonly headers: Headers;
  readonly body: string;
  /** How long the whole request took, answer read included. */
  readonly ms: number;
}

/** The body was larger than the recorder holds in memory for one answer. */
export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`answer larger than ${limit} bytes`);
    this.name = 'BodyTooLargeError';
  }
}

/** The upstream answered 3xx: never followed (it would carry the token or the secret elsewhere). */
export class RedirectRefusedError extends Error {
  constructor(
    readonly status: number,
    /** Where it pointed: origin and path, without query or fragment; `none` when it named nothing. */
    readonly target: string,
  ) {
    super(`redirect ${status} to ${target} not followed`);
    this.name = 'RedirectRefusedError';
  }
}

/** The answer was not UTF-8 (RFC 8259 makes JSON UTF-8): it is no message, and no line is written of it. */
export class NotUtf8Error extends Error {
  constructor() {
    super('answer is not valid UTF-8');
    this.name = 'NotUtf8Error';
  }
}

/** The request did not finish (headers and the whole body) within its deadline. */
export class DeadlineError extends Error {
  constructor(
    readonly deadlineMs: number,
    readonly phase: 'headers' | 'body',
  ) {
    super(
      phase === 'headers'
        ? `no answer within ${deadlineMs} ms`
        : `answer body not finished within ${deadlineMs} ms`,
    );
    this.name = 'DeadlineError';
  }
}

export interface RequestLimits {
  readonly maxBytes: number;
  /** The whole request, a slow body included, ends by then. */
  readonly deadlineMs: number;
  readonly clock: Clock;
  /** The recorder's stop. */
  readonly signal: AbortSignal;
}

/** Where a redirect pointed, for a log line: no query (it may carry a token), and short. */
function targetOf(location: string | null, url: string): string {
  if (location === null || location.trim() === '') return 'none';
  try {
    const target = new URL(location, url);
    return `${target.origin}${target.pathname}`.slice(0, 200);
  } catch {
    return 'an unreadable Location';
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * One request that can neither be redirected nor last forever: redirects are refused (a 3xx
 * throws RedirectRefusedError and nothing is sent to its Location), the whole exchange, body
 * included, ends at `deadlineMs` (DeadlineError), the body is read up to `maxBytes`
 * (BodyTooLargeError) and must be UTF-8 (NotUtf8Error). An upstream that sends an endless, huge,
 * slow or redirected answer costs a bounded amount of time and memory.
 */
export async function requestText(
  fetchFn: FetchFn,
  url: string,
  init: RequestInit,
  limits: RequestLimits,
): Promise<HttpAnswer> {
  const { clock, signal, deadlineMs, maxBytes } = limits;
  const started = clock.now();
  const controller = new AbortController();
  let phase: 'headers' | 'body' | undefined = 'headers';
  let expired = false;
  const stop = () => controller.abort();
  signal.addEventListener('abort', stop, { once: true });
  if (signal.aborted) controller.abort();
  // A fetch handed in by a test may not honour the signal: the race ends the wait regardless.
  let gaveUp!: (err: Error) => void;
  const abandoned = new Promise<never>((_resolve, reject) => (gaveUp = reject));
  abandoned.catch(() => undefined);
  const timer = clock.setTimeout(() => {
    expired = true;
    controller.abort();
    gaveUp(new DeadlineError(deadlineMs, phase ?? 'body'));
  }, deadlineMs);
  controller.signal.addEventListener('abort', () => gaveUp(new Error('recorder stopping')), { once: true });
  try {
    const res = await Promise.race([
      fetchFn(url, { ...init, redirect: 'manual', signal: controller.signal }),
      abandoned,
    ]);
    phase = 'body';
    if (res.status >= 300 && res.status < 400) {
      void res.body?.cancel().catch(() => undefined);
      throw new RedirectRefusedError(res.status, targetOf(res.headers.get('location'), url));
    }
    const declared = Number(res.headers.get('content-length') ?? Number.NaN);
    if (declared > maxBytes) {
      void res.body?.cancel().catch(() => undefined);
      throw new BodyTooLargeError(maxBytes);
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    if (res.body) {
      const reader = res.body.getReader();
      for (;;) {
        const { done, value } = await Promise.race([reader.read(), abandoned]);
        if (done) break;
        size += value.byteLength;
        if (size > maxBytes) {
          void reader.cancel().catch(() => undefined);
          throw new BodyTooLargeError(maxBytes);
        }
        chunks.push(value);
      }
    }
    let body: string;
    try {
      body = utf8.decode(Buffer.concat(chunks, size));
    } catch {
      throw new NotUtf8Error();
    }
    return { status: res.status, headers: res.headers, body, ms: clock.now() - started };
  } catch (err) {
    if (expired) throw new DeadlineError(deadlineMs, phase ?? 'body');
    throw err;
  } finally {
    phase = undefined;
    timer.cancel();
    signal.removeEventListener('abort', stop);
  }
}

/** A network failure's short name for a log line (never the request, which carries a token). */
export function failureReason(err: unknown): string {
  if (
    err instanceof DeadlineError ||
    err instanceof RedirectRefusedError ||
    err instanceof NotUtf8Error ||
    err instanceof BodyTooLargeError
  ) {
    return err.message;
  }
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e.cause?.code) return e.cause.code;
  if (e.name === 'TimeoutError') return 'timeout';
  return e.cause?.message ?? e.message ?? String(err);
}
