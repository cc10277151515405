import autocannon from 'autocannon';
import type { OutgoingHttpHeaders } from 'node:http';

export type LoadResult = Awaited<ReturnType<typeof load>>;

export interface LoadOptions {
  readonly port: number;
  readonly connections: number;
  readonly seconds: number;
  readonly headers?: OutgoingHttpHeaders;
  /** A fixed path, or one per request (paging through the store). */
  readonly path: string | (() => string);
}

/** autocannon at fixed concurrency; errors, timeouts and non-2xx answers are counted as bad. */
export async function load(options: LoadOptions) {
  const next = options.path;
  const result = await autocannon({
    url: `http://127.0.0.1:${options.port}`,
    connections: options.connections,
    duration: options.seconds,
    // autocannon stops only on a sample tick (1 s by default): ticks that divide the duration.
    sampleInt: Math.max(50, (options.seconds * 1000) / Math.ceil(options.seconds)),
    pipelining: 1,
    timeout: 10,
    ...(options.headers && { headers: options.headers }),
    requests: [
      typeof next === 'string'
        ? { method: 'GET', path: next }
        : { method: 'GET', setupRequest: (req) => ({ ...req, path: next() }) },
    ],
  });
  const ok = result['2xx'];
  return {
    /** Requests answered 2xx. */
    requests: ok,
    requestsPerSecond: ok / result.duration,
    bytesPerResponse: result.requests.total > 0 ? result.throughput.total / result.requests.total : 0,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    bad: result.errors + result.timeouts + result.non2xx,
  };
}

export interface InjectOptions {
  readonly port: number;
  readonly path: string;
  readonly body: string;
  readonly contentType: string;
  readonly amount: number;
  readonly connections: number;
}

/** Posts `amount` messages as fast as the server takes them. */
export async function inject(options: InjectOptions): Promise<{ seconds: number; bad: number }> {
  const result = await autocannon({
    url: `http://127.0.0.1:${options.port}${options.path}`,
    method: 'POST',
    body: options.body,
    headers: { 'content-type': options.contentType },
    connections: options.connections,
    amount: options.amount,
    timeout: 30,
  });
  return { seconds: result.duration, bad: result.errors + result.timeouts + result.non2xx };
}
