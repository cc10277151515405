import { inject } from '../../harness/load';
import { legacyXml } from '../../harness/payloads';
import { ourSim } from '../../harness/processes';
import { compare, count } from '../../harness/rows';
import { simState } from '../../harness/store';
import type { Scenario } from '../../types';
import { bareIdleRss, mb, reading } from './_memory';

/** Messages queued for the user of the queue: every legacy user takes channel `id`. */
const queued = async (port: number) =>
  Object.values((await simState(port)).users).reduce((n, u) => n + u.queueDepth, 0);

export default {
  method: ({ config }) => [
    `Legacy queue: \`racedata-sim legacy\` with LEGACY_QUEUE_MAX at the count, idle and then with ${count(config.memory.legacyMessages)} Durable messages posted over HTTP to channel \`id\` (autocannon, 8 connections) and queued; per queued message = (RSS full - RSS idle) / count, and the heap likewise from GET /metrics.`,
  ],
  async run(ctx) {
    const { legacyMessages: n } = ctx.config.memory;
    ctx.log(`  ${n} legacy messages queued`);
    const bare = await bareIdleRss();
    const sim = await ourSim(ctx, 'legacy', { env: { LEGACY_QUEUE_MAX: String(n) } });
    try {
      const idle = await reading(sim);
      const path = '/customerapi/channel/id/Durable?payloadKey=bench';
      const posted = await inject(sim.port, path, legacyXml(1), 'application/xml', n);
      const depth = await queued(sim.port);
      if (posted.bad > 0 || depth !== n)
        throw new Error(`${posted.bad} failed posts; ${depth} of ${n} queued`);
      const full = await reading(sim);
      return {
        rows: [
          compare({
            scenario: 'legacy simulator idle RSS',
            unit: 'MB',
            ours: mb(idle.rss),
            bare: mb(bare),
            better: 'lower',
          }),
          compare({
            ...{ scenario: `legacy simulator RSS with ${count(n)} queued messages`, unit: 'MB' },
            ...{ ours: mb(full.rss), bare: null },
            better: 'lower',
            note: `${Math.round((full.rss - idle.rss) / n)} B RSS / ${Math.round((full.heapUsed - idle.heapUsed) / n)} B heap per queued message`,
          }),
        ],
      };
    } finally {
      await sim.stop();
    }
  },
} satisfies Scenario;
