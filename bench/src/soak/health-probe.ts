import { forkWorker } from '../harness/processes';

/** Each simulator's /health samples: latency (ms), when each was sent (Date.now()), failures. */
export type ProbeResult = Record<string, { samples: number[]; sentAt: number[]; failed: number }>;

export type HealthProbe = Awaited<ReturnType<typeof startHealthProbe>>;

/** GET /health on each target every `everyMs`, from a process of its own (probe-worker.ts). */
export async function startHealthProbe(
  targets: ReadonlyArray<{ name: string; port: number }>,
  everyMs: number,
  maxMs: number,
) {
  const child = await forkWorker('soak/probe-worker.ts', {
    PROBE_TARGETS: JSON.stringify(targets),
    PROBE_EVERY_MS: String(everyMs),
    PROBE_MAX_MS: String(maxMs),
  });
  // Stops probing and hands over the samples (none if the probe process does not answer).
  return {
    stop: async () => {
      const result = await child.call<ProbeResult>('stop', {}, 10_000).catch((): ProbeResult => ({}));
      await child.close();
      return result;
    },
  };
}
