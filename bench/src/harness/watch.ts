import { forkWorker, type Server } from './processes';
import { rssKb } from './proc';

/** Each simulator's GET /health samples: latency (ms), when each was sent (Date.now()), failures. */
export type ProbeResult = Record<string, { samples: number[]; sentAt: number[]; failed: number }>;

/**
 * Watches simulators from outside while a load runs (the soak, each abuse phase): GET /health from
 * a prober process of its own every `probeEveryMs`, and VmRSS from /proc every `rssEveryMs` (and
 * whenever `sample()` is called), each reading at its ms since the watch began.
 */
export async function watch(
  sims: ReadonlyArray<{ kind: string; sim: Server }>,
  probeEveryMs: number,
  rssEveryMs: number,
) {
  const prober = await forkWorker('harness/probe-worker.ts', {
    PROBE_TARGETS: JSON.stringify(sims.map(({ kind, sim }) => ({ name: kind, port: sim.port }))),
    ...{ PROBE_EVERY_MS: String(probeEveryMs), PROBE_MAX_MS: String(3_600_000) },
  });
  const started = performance.now();
  const rss: Record<string, Array<{ atMs: number; kb: number }>> = Object.fromEntries(
    sims.map((s) => [s.kind, []]),
  );
  const sample = () => {
    const atMs = Math.round(performance.now() - started);
    for (const { kind, sim } of sims) {
      const kb = rssKb(sim.pid);
      if (kb !== undefined) rss[kind]?.push({ atMs, kb });
    }
  };
  sample();
  const timer = setInterval(sample, rssEveryMs);
  return {
    rss,
    sample,
    /** Stops both and hands over the readings (no probes if the prober does not answer). */
    async stop() {
      clearInterval(timer);
      sample();
      const probes = await prober.call<ProbeResult>('stop', {}, 10_000).catch((): ProbeResult => ({}));
      await prober.close();
      return { rss, probes };
    },
  };
}
