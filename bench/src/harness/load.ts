import type { OutgoingHttpHeaders } from 'node:http';

/** What the harness reads of an autocannon 8 result (the package ships no types). */
interface Result {
  requests: { total: number };
  throughput: { total: number };
  latency: { p50: number };
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  '2xx': number;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const autocannon = require('autocannon') as (options: Record<string, unknown>) => Promise<Result>;

export interface LoadOptions {
  readonly port: number;
  readonly connections: number;
  readonly seconds: number;
  readonly headers?: OutgoingHttpHeaders;
  /** A fixed path, or one per request (walking the store). */
  readonly path: string | (() => string);
}

/** autocannon at fixed concurrency, no pipelining; errors, timeouts and non-2xx answers count as bad. */
export async function load({ port, connections, seconds, headers, path }: LoadOptions) {
  const result = await autocannon({
    ...{ url: `http://127.0.0.1:${port}`, connections, duration: seconds, timeout: 10, headers },
    // autocannon stops only on a sample tick (1 s by default): ticks that divide the duration.
    sampleInt: Math.max(50, (seconds * 1000) / Math.ceil(seconds)),
    requests: [
      typeof path === 'string' ? { path } : { setupRequest: (req: object) => ({ ...req, path: path() }) },
    ],
  });
  const ok = result['2xx'];
  return {
    ...{ requests: ok, requestsPerSecond: ok / result.duration, p50Ms: result.latency.p50 },
    bytesPerResponse: result.requests.total > 0 ? result.throughput.total / result.requests.total : 0,
    bad: result.errors + result.timeouts + result.non2xx,
  };
}

/** Posts `amount` times `body` to `path` as fast as the server takes them (8 connections). */
export async function inject(port: number, path: string, body: string, type: string, amount: number) {
  const headers = { 'content-type': type };
  const url = `http://127.0.0.1:${port}${path}`;
  const r = await autocannon({ url, method: 'POST', body, headers, amount, connections: 8, timeout: 30 });
  return { seconds: r.duration, bad: r.errors + r.timeouts + r.non2xx };
}
