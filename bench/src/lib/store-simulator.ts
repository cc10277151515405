import type { BenchContext } from '../context';
import { httpRequest } from './http-client';
import { startCliSimulator, type CliSimulator, type CliSimulatorOptions } from './simulator-process';

/**
 * The JSON simulator as users run it, for the store measures: the CLI in its own process, with
 * room for the largest store the measure fills (over HTTP).
 */
export function startStoreSimulator(
  ctx: BenchContext,
  maxEvents: number,
  options: CliSimulatorOptions = {},
): Promise<CliSimulator> {
  return startCliSimulator(ctx.simRoot, 'json', {
    ...options,
    args: ['--no-replay', ...(options.args ?? [])],
    env: {
      EVENT_STORE_MAX: String(Math.max(1, maxEvents)),
      // Counted at JSON size + 200 B an event, 1,000,000 start-list events take about 600 MB of
      // budget, past the 256 MiB default; the count alone must decide what is kept.
      EVENT_STORE_MAX_BYTES: String(64 * 1024 ** 3),
      ...options.env,
    },
  });
}

/**
 * The simulator's own view of its heap, from GET /metrics: as a whole and without its young
 * generation (prom-client's nodejs_heap_* gauges).
 */
export async function heapReading(port: number) {
  const answer = await httpRequest({ port, path: '/metrics' });
  if (answer.status !== 200) throw new Error(`GET /metrics: HTTP ${answer.status}`);
  const text = answer.body.toString('utf8');
  const heapUsed = gauge(text, 'nodejs_heap_size_used_bytes');
  const heapTotal = gauge(text, 'nodejs_heap_size_total_bytes');
  // The young generation is a reserve V8 sizes to the allocation rate (up to 2 x 16 MB
  // semi-spaces), whatever the store holds; what outlives it is the rest of the heap.
  const young = (kind: 'total' | 'used') =>
    gauge(text, `nodejs_heap_space_size_${kind}_bytes{space="new"}`) +
    gauge(text, `nodejs_heap_space_size_${kind}_bytes{space="new_large_object"}`);
  return { heapUsed, heapTotal, oldUsed: heapUsed - young('used'), oldTotal: heapTotal - young('total') };
}

/** A gauge's value; `name` may carry its labels (`name{label="value"}`) to pick one series. */
export function gauge(metrics: string, name: string): number {
  const labelled = name.includes('{');
  const pattern = labelled ? name.replace(/[{}"]/g, (c) => `\\${c}`) : `${name}(?:\\{[^}]*\\})?`;
  const match = new RegExp(`^${pattern} (\\S+)$`, 'm').exec(metrics);
  if (!match) throw new Error(`GET /metrics has no ${name}`);
  return Number(match[1]);
}
