import { inject } from '../../harness/load';
import { legacyXml } from '../../harness/payloads';
import { ourSim, withServer } from '../../harness/processes';
import { compare, count } from '../../harness/rows';
import { reading, simState } from '../../harness/store';
import type { Scenario } from '../../types';
import { bareIdleRss, idleRow, mb } from './_memory';

export default {
  method: ({ config }) => [
    `Legacy queue: \`racedata-sim legacy\` with LEGACY_QUEUE_MAX at the count, idle and then with ${count(config.memory.legacyMessages)} Durable messages posted over HTTP to channel \`id\` (autocannon, 8 connections) and queued; per queued message = (RSS full - RSS idle) / count, and the heap likewise from GET /metrics.`,
  ],
  async run(ctx) {
    const { legacyMessages: n } = ctx.config.memory;
    ctx.log(`  ${n} legacy messages queued`);
    const bare = await bareIdleRss();
    const [idle, full] = await withServer(
      ourSim(ctx, 'legacy', { env: { LEGACY_QUEUE_MAX: String(n) } }),
      async (sim) => {
        const before = await reading(sim);
        const path = '/customerapi/channel/id/Durable?payloadKey=bench';
        const posted = await inject(sim.port, path, legacyXml(1), 'application/xml', n);
        // Messages queued for the user of the queue: every legacy user takes channel `id`.
        const depth = Object.values((await simState(sim.port)).users).reduce((n, u) => n + u.queueDepth, 0);
        if (posted.bad > 0 || depth !== n)
          throw new Error(`${posted.bad} failed posts; ${depth} of ${n} queued`);
        return [before, await reading(sim)] as const;
      },
    );
    const perMessage = `${Math.round((full.rss - idle.rss) / n)} B RSS / ${Math.round((full.heapUsed - idle.heapUsed) / n)} B heap per queued message`;
    const scenario = `legacy simulator RSS with ${count(n)} queued messages`;
    const queue = compare({ scenario, unit: 'MB', better: 'lower', ours: mb(full.rss), bare: null });
    return { rows: [idleRow('legacy simulator idle RSS', idle.rss, bare), { ...queue, note: perMessage }] };
  },
} satisfies Scenario;
