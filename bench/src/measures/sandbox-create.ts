import type { BenchContext } from '../context';
import { startCliSimulator } from '../lib/simulator-process';
import { percentile, round } from '../lib/stats';
import type { Comparison, MeasureBody } from '../types';

const TARGET_MS = 5;

async function timed(url: string, init?: RequestInit): Promise<{ ms: number; body: unknown }> {
  const started = performance.now();
  const res = await fetch(url, init);
  const body = (await res.json()) as unknown;
  const ms = performance.now() - started;
  if (!res.ok)
    throw new Error(`${init?.method ?? 'GET'} ${url} answered ${res.status}: ${JSON.stringify(body)}`);
  return { ms, body };
}

/**
 * POST /_sim/sandboxes against the real CLI, one after another (each deleted before the next,
 * so SANDBOX_MAX never bites), timed from the client: the HTTP round trip is included. The
 * same server's GET /health, timed the same way and interleaved, shows what the round trip alone
 * costs.
 */
export async function sandboxCreate(ctx: BenchContext): Promise<MeasureBody> {
  const { creates } = ctx.config.sandboxes;
  const comparisons: Comparison[] = [];
  for (const kind of ['json', 'legacy'] as const) {
    const sim = await startCliSimulator(ctx.simRoot, kind);
    try {
      const base = `http://127.0.0.1:${sim.port}`;
      const create: number[] = [];
      const health: number[] = [];
      // A few unmeasured rounds first: the first sandbox pays for compiling the factory's code.
      for (let i = -5; i < creates; i++) {
        const h = await timed(`${base}/health`);
        const made = await timed(`${base}/_sim/sandboxes`, { method: 'POST' });
        const { id } = made.body as { id: string };
        await timed(`${base}/_sim/sandboxes/${id}`, { method: 'DELETE' });
        if (i < 0) continue;
        create.push(made.ms);
        health.push(h.ms);
      }
      create.sort((a, b) => a - b);
      health.sort((a, b) => a - b);
      const p50 = round(percentile(create, 50), 2);
      const bareP50 = round(percentile(health, 50), 2);
      comparisons.push({
        scenario: `${kind}: POST /_sim/sandboxes, p50 of ${creates}`,
        unit: 'ms',
        ours: p50,
        baselines: [{ name: 'GET /health on the same server', value: bareP50 }],
        ratio: bareP50 > 0 ? round(p50 / bareP50, 3) : null,
        ratioLabel: 'create / health',
        target: `< ${TARGET_MS} ms`,
        verdict: p50 < TARGET_MS ? 'PASS' : 'MISS',
        note: `p99 ${round(percentile(create, 99), 2)} ms; max ${round(create[create.length - 1] ?? 0, 2)} ms`,
      });
    } finally {
      await sim.stop();
    }
  }
  return {
    method: [
      'The real CLI (`racedata-sim json` / `legacy`) in its own process; the harness creates a sandbox, deletes it, and repeats.',
      'Each create is timed from the client, HTTP round trip included; GET /health on the same server, interleaved, is the round trip alone.',
    ],
    comparisons,
    notes: [],
    profiles: [],
  };
}
