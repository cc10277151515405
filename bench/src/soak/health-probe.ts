import path from 'node:path';
import { startChild } from '../lib/child-server';

/** Each simulator's /health samples: latency (ms), when each was sent (Date.now()), failures. */
export type ProbeResult = Record<string, { samples: number[]; sentAt: number[]; failed: number }>;

export type HealthProbe = Awaited<ReturnType<typeof startHealthProbe>>;

const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');

/** GET /health on each simulator every `everyMs`, from a process of its own (probe-worker.ts). */
export async function startHealthProbe(
  sims: ReadonlyArray<{ kind: string; port: number }>,
  everyMs: number,
  maxMs: number,
) {
  const child = await startChild({
    name: 'health probe',
    entry: 'bench/src/soak/probe-worker.ts',
    root: REPO_ROOT,
    env: {
      PROBE_TARGETS: JSON.stringify(sims.map((s) => ({ name: s.kind, port: s.port }))),
      PROBE_EVERY_MS: String(everyMs),
      PROBE_MAX_MS: String(maxMs),
    },
  });
  // Stops probing and hands over the samples (none if the probe process does not answer).
  return { stop: () => child.call<ProbeResult>('stop', {}, 10_000).catch((): ProbeResult => ({})) };
}
