import type { Clock } from '@racedata/core';
import { CliError } from '../errors';

export type FetchFn = typeof fetch;

const aborted = () => new CliError('REPLAY_ABORTED', {});

/** Waits on the injected clock; ends early, rejecting, when the signal aborts. */
export function sleep(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(aborted());
    const onAbort = () => {
      timer.cancel();
      reject(aborted());
    };
    const timer = clock.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** The readable part of a fetch failure: undici hides the socket error code in `cause`. */
export function networkReason(err: unknown): string {
  const cause = (err as { cause?: { code?: unknown; message?: unknown } }).cause;
  const detail =
    typeof cause?.code === 'string' ? cause.code : typeof cause?.message === 'string' ? cause.message : '';
  const message = err instanceof Error ? err.message : String(err);
  return detail ? `${message} (${detail})` : message;
}

/**
 * One request, cut off after timeoutMs of real time or when `signal` aborts. The cut-off is a
 * watchdog against a socket that never answers, so it runs on real time rather than the clock.
 */
export async function request(
  fetchFn: FetchFn,
  url: string,
  init: RequestInit,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<{ status: number; body: string }> {
  if (signal?.aborted) throw aborted();
  const controller = new AbortController();
  const onAbort = () => controller.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  const watchdog = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const response = await fetchFn(url, { ...init, signal: controller.signal });
    // Reading the body frees the connection for the next message.
    return { status: response.status, body: await response.text() };
  } catch (err) {
    if (signal?.aborted) throw aborted();
    if (controller.signal.aborted) throw new Error(`no answer within ${timeoutMs} ms`);
    throw new Error(networkReason(err));
  } finally {
    clearTimeout(watchdog);
    signal?.removeEventListener('abort', onAbort);
  }
}
