import type { Clock } from '@racedata/core';
import { CliError } from '../errors';

export type FetchFn = typeof fetch;

/** Of an answer's body, only this much is read: it is quoted in a log line at most. */
const ANSWER_MAX_BYTES = 64 * 1024;

async function bodyText(response: Response): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
    if (size >= ANSWER_MAX_BYTES) {
      await reader.cancel();
      break;
    }
  }
  return Buffer.concat(chunks, size).toString('utf8');
}

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
 * A redirect is never followed (the recorded messages would go to wherever it points): its status
 * comes back with `location`, for the caller to treat as a failure. The answer's body is read up
 * to ANSWER_MAX_BYTES: what the target says back is only quoted in a log line.
 */
export async function request(
  fetchFn: FetchFn,
  url: string,
  init: RequestInit,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<{ status: number; body: string; location?: string }> {
  if (signal?.aborted) throw aborted();
  const controller = new AbortController();
  const onAbort = () => controller.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  const watchdog = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const response = await fetchFn(url, { ...init, redirect: 'manual', signal: controller.signal });
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel();
      return { status: response.status, body: '', location: response.headers.get('location') ?? 'nowhere' };
    }
    // Reading the body frees the connection for the next message.
    return { status: response.status, body: await bodyText(response) };
  } catch (err) {
    if (signal?.aborted) throw aborted();
    if (controller.signal.aborted) throw new Error(`no answer within ${timeoutMs} ms`);
    throw new Error(networkReason(err));
  } finally {
    clearTimeout(watchdog);
    signal?.removeEventListener('abort', onAbort);
  }
}
