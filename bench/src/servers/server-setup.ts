import { createRequire } from 'node:module';
import path from 'node:path';
import type { SimulatorSettings } from '@racedata/core';

/**
 * A simulator package for a server entry: this checkout's, resolved as any import, or, when the
 * harness set BENCH_SIM_ROOT (the before side of `npm run bench -- --before ROOT`), the build of
 * that checkout, so both sides run the same harness against different simulators.
 */
export async function simPackage<T>(
  name: 'core' | 'json-sim' | 'legacy-sim',
  own: () => Promise<T>,
): Promise<T> {
  const root = process.env.BENCH_SIM_ROOT;
  if (!root) return own();
  const load = createRequire(path.join(root, 'package.json'));
  return load(path.join(root, 'packages', name, 'dist', 'index.js')) as T;
}

/** Settings of a simulator under measurement: quiet, nothing timing out; BENCH_SETTINGS on top. */
export function benchSettings(): Partial<SimulatorSettings> {
  return {
    host: '127.0.0.1',
    port: 0,
    logLevel: 'silent',
    // Nothing may time out during a run: polls are held and sockets idle for minutes.
    longPollTimeoutMs: 600_000,
    wsAuthTimeoutMs: 600_000,
    wsPingIntervalMs: 3_600_000,
    // Every bench client is the same user: up to 1,000 event-stream or STOMP sessions at once.
    wsMaxSessionsPerUser: 100_000,
    ...(JSON.parse(process.env.BENCH_SETTINGS ?? '{}') as Partial<SimulatorSettings>),
  };
}
