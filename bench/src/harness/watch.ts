import { forkWorker, rssKb, type Server } from './processes';
import { distribution } from './rows';
import { check } from '../types';

/** Each simulator's GET /health samples: latency (ms), when each was sent (Date.now()), failures. */
export type ProbeResult = Record<string, { samples: number[]; sentAt: number[]; failed: number }>;

/** The soak's and the abuse run's target for every simulator: GET /health p99 under 100 ms. */
export const HEALTH_P99_LIMIT_MS = 100;

type Watched = { kind: string; sim: Server };

/**
 * Watches simulators from outside while a load runs (the soak, each abuse phase): GET /health from
 * a client process (clients/client-worker.ts) every `probeEveryMs`, and VmRSS from /proc every
 * `rssEveryMs` (and whenever `sample()` is called), each reading at its ms since the watch began.
 */
export async function watch(sims: readonly Watched[], probeEveryMs: number, rssEveryMs: number) {
  const prober = await forkWorker('clients/client-worker.ts');
  const targets = sims.map(({ kind, sim }) => ({ name: kind, port: sim.port }));
  await prober.call('probe', { targets, everyMs: probeEveryMs });
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
    sample,
    /** Stops both and hands over the readings (no probes if the prober does not answer). */
    async stop() {
      clearInterval(timer);
      sample();
      const probes = await prober.call<ProbeResult>('probed', {}, 10_000).catch((): ProbeResult => ({}));
      await prober.close();
      return { rss, probes };
    },
  };
}

/** One simulator's /health latency (ms) over the probes sent from `fromWall` (Date.now()) on. */
export function health(probe: ProbeResult[string] | undefined, fromWall = 0) {
  const samples = probe?.samples.filter((_, k) => (probe.sentAt[k] ?? 0) >= fromWall) ?? [];
  return { ...distribution(samples), failed: probe?.failed ?? 0 };
}

export const healthCheck = (name: string, h: ReturnType<typeof health>, more = '') =>
  check(
    `${name} /health p99`,
    `< ${HEALTH_P99_LIMIT_MS} ms, none failed`,
    `${h.p99} ms (${h.count} probes, ${h.failed} failed, max ${h.max} ms${more})`,
    h.p99 < HEALTH_P99_LIMIT_MS && h.failed === 0 && h.count > 0,
  );
