/** The part of fetch the recorder uses; tests may hand in their own. */
export type FetchFn = (url: string, init: RequestInit) => Promise<Response>;

export interface HttpAnswer {
  readonly status: number;
  readonly headers: Headers;
  readonly body: string;
}

/** The body was larger than the recorder holds in memory for one answer. */
export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`answer larger than ${limit} bytes`);
    this.name = 'BodyTooLargeError';
  }
}

/**
 * One request, its body read as UTF-8 text but never more than `maxBytes` of it: an upstream
 * that sends an endless or huge answer costs a bounded amount of memory.
 */
export async function requestText(
  fetchFn: FetchFn,
  url: string,
  init: RequestInit,
  maxBytes: number,
): Promise<HttpAnswer> {
  const res = await fetchFn(url, init);
  const declared = Number(res.headers.get('content-length') ?? Number.NaN);
  if (declared > maxBytes) {
    await res.body?.cancel();
    throw new BodyTooLargeError(maxBytes);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (res.body) {
    const reader = res.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel();
        throw new BodyTooLargeError(maxBytes);
      }
      chunks.push(value);
    }
  }
  return { status: res.status, headers: res.headers, body: Buffer.concat(chunks, size).toString('utf8') };
}

/** A request's signal: the recorder's stop, and a deadline for an upstream that never answers. */
export function requestSignal(stop: AbortSignal, timeoutMs: number): AbortSignal {
  return AbortSignal.any([stop, AbortSignal.timeout(timeoutMs)]);
}

/** A network failure's short name for a log line (never the request, which carries a token). */
export function failureReason(err: unknown): string {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e.cause?.code) return e.cause.code;
  if (e.name === 'TimeoutError') return 'timeout';
  return e.cause?.message ?? e.message ?? String(err);
}
