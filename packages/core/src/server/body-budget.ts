import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';

/**
 * A global allowance of request-body bytes being received at once. Each body claims what it
 * may grow to (its Content-Length, or the per-body limit when chunked) before any byte of it
 * is buffered, so a crowd of clients trickling large bodies cannot grow the heap without bound.
 */
export class BodyBudget {
  private used = 0;

  constructor(readonly maxBytes: number) {}

  get inUse(): number {
    return this.used;
  }

  tryClaim(bytes: number): boolean {
    if (this.used + bytes > this.maxBytes) return false;
    this.used += bytes;
    return true;
  }

  release(bytes: number): void {
    this.used -= bytes;
  }
}

/** What a request's body may grow to: 0 without one, never above the per-body limit. */
export function bodyClaim(req: IncomingMessage, maxBodyBytes: number): number {
  const length = req.headers['content-length'];
  if (length !== undefined) {
    const n = Number(length);
    // Node has already refused a malformed Content-Length with 400.
    return Number.isFinite(n) ? Math.min(n, maxBodyBytes) : maxBodyBytes;
  }
  return req.headers['transfer-encoding'] !== undefined ? maxBodyBytes : 0;
}

/** Clients back off on 503 + Retry-After; the connection is closed so the unread body is dropped. */
function refuse(res: ServerResponse, budget: BodyBudget): void {
  const body = JSON.stringify({
    status: 'fail',
    message: `too many request bodies in flight (MAX_INFLIGHT_BODY_BYTES ${budget.maxBytes}); retry shortly`,
  });
  res.writeHead(503, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'retry-after': '1',
    connection: 'close',
  });
  res.end(body);
}

/**
 * Wraps a request listener so a request with a body runs only once its claim fits the budget.
 * The claim is held until the exchange is over: the parsed body lives until the response.
 */
export function withBodyBudget(
  handler: RequestListener,
  budget: BodyBudget,
  maxBodyBytes: number,
): RequestListener {
  return (req, res) => {
    const claim = bodyClaim(req, maxBodyBytes);
    if (claim > 0) {
      if (!budget.tryClaim(claim)) {
        refuse(res, budget);
        return;
      }
      // 'close' follows 'finish' and also comes when the client goes away mid-body.
      res.once('close', () => budget.release(claim));
    }
    handler(req, res);
  };
}
