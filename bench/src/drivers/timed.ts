import { httpRequest, type HttpResult } from '../harness/http';
import { ourSim, withServer, type SimKind } from '../harness/processes';
import { compare, percentile, round } from '../harness/rows';
import type { Comparison, Scenario } from '../types';

/** Milliseconds `request` took, from the client; an answer of 300 or above is a failure. */
export async function timed(request: () => Promise<HttpResult>): Promise<{ ms: number; body: Buffer }> {
  const started = performance.now();
  const answer = await request();
  const ms = performance.now() - started;
  if (answer.status >= 300)
    throw new Error(`HTTP ${answer.status}: ${answer.body.toString('utf8').slice(0, 300)}`);
  return { ms, body: answer.body };
}

/** GET /health on the same server: the round trip alone, which the baselines of per-test costs are. */
export const health = (port: number) => timed(() => httpRequest({ port, path: '/health' }));

export interface TimedSpec {
  /** The row's scenario, given the simulator and the number of timings (`json: POST /_sim/reset, p50 of 300`). */
  readonly label: (kind: SimKind, repeats: number) => string;
  /** What the baseline timing is: a request on the same server, or the same request another time. */
  readonly baseline: string;
  /** One repetition on a simulator listening on `port`: ours and the baseline, each in ms. */
  repeat(port: number, kind: SimKind, i: number): Promise<{ ours: number; baseline: number }>;
  /** Target on the p50 (ms) and its ratio to the baseline's; none: INFO. */
  readonly target?: { readonly text: string; ok(p50: number, ratio: number): boolean };
  readonly method: string;
}

/**
 * What a test pays per call, timed from the client against the real CLI in its own process,
 * repetition after repetition (a few unmeasured first: the first calls pay for compiling), with
 * the baseline timed the same way in each repetition.
 */
export function timedRequests(spec: TimedSpec): Scenario {
  return {
    method: () => [
      'The real CLI (`racedata-sim json` / `legacy`) in its own process; each call timed from the client (HTTP round trip included) over a keep-alive connection, repetition after repetition after 5 unmeasured ones; p50 and p99 of the repetitions.',
      spec.method,
    ],
    async run(ctx) {
      const { repeats } = ctx.config.perTest;
      const rows: Comparison[] = [];
      for (const kind of ['json', 'legacy'] as const) {
        const times = await withServer(ourSim(ctx, kind), async (sim) => {
          const all = [];
          for (let i = -5; i < repeats; i++) all.push(await spec.repeat(sim.port, kind, i));
          return all.slice(5);
        });
        const sorted = (k: 'ours' | 'baseline') => times.map((t) => t[k]).sort((x, y) => x - y);
        const [o, b] = [sorted('ours'), sorted('baseline')];
        const [p50, bare] = [percentile(o, 50), percentile(b, 50)];
        const pass = spec.target?.ok(p50, p50 / bare);
        rows.push({
          ...compare({
            ...{ scenario: spec.label(kind, repeats), unit: 'ms', ours: p50, bare },
            ...{ bareName: spec.baseline, better: 'lower', ratioLabel: `ours / ${spec.baseline}` },
            note: `p99 ${round(percentile(o, 99), 2)} ms (baseline ${round(percentile(b, 99), 2)} ms); max ${round(o.at(-1) ?? 0, 2)} ms`,
          }),
          ...(spec.target && { target: spec.target.text, verdict: pass ? 'PASS' : 'MISS' }),
        });
      }
      return { rows };
    },
  };
}
