import { inject } from '../../harness/load';
import { jsonDurableMessage, legacyXml } from '../../harness/payloads';
import { ourSim, withServer, type SimKind } from '../../harness/processes';
import { count } from '../../harness/rows';
import { reading, simState, startStore } from '../../harness/store';
import type { BenchContext, Comparison, Scenario } from '../../types';
import { mb } from './_memory';

/** What each kind is injected, and which cap holds it. */
const CAPS = {
  json: {
    ...{ label: 'JSON durable store', setting: 'EVENT_STORE_MAX', path: '/api/message' },
    ...{ body: jsonDurableMessage(1), contentType: 'application/json' },
  },
  legacy: {
    ...{ label: 'legacy queue', setting: 'LEGACY_QUEUE_MAX' },
    ...{ path: '/customerapi/channel/id/Durable?payloadKey=bench' },
    ...{ body: legacyXml(1), contentType: 'application/xml' },
  },
};

/**
 * Sustained injection over HTTP of `multiple` x the cap, in steps of one cap, reading RSS (after
 * GC) between steps: RSS must stop growing, and exactly the cap be kept.
 */
async function capRow(ctx: BenchContext, kind: SimKind, cap: number, multiple: number): Promise<Comparison> {
  const { label, setting, path, body, contentType } = CAPS[kind];
  const env = { [setting]: String(cap) };
  const rss: number[] = [];
  const starting = kind === 'json' ? startStore(ctx, cap, { env }) : ourSim(ctx, kind, { env });
  const { bad, kept } = await withServer(starting, async (sim) => {
    let [bad, kept] = [0, 0];
    for (let step = 1; step <= multiple; step++) {
      bad += (await inject(sim.port, path, body, contentType, cap)).bad;
      rss.push((await reading(sim)).rss);
      const state = await simState(sim.port);
      kept = state.store?.events ?? Object.values(state.users).reduce((n, u) => n + u.queueDepth, 0);
    }
    return { bad, kept };
  });
  // Against the highest RSS of the run's first half, not one step of it: how soon the heap
  // reaches its working size depends on the garbage each post makes (a lighter request path
  // reaches it a cap or two later, from lower), and what is measured is growth after that.
  const growth = (rss.at(-1) as number) / Math.max(...rss.slice(0, Math.ceil(rss.length / 2)));
  const ok = growth <= 1.1 && kept === cap;
  return {
    scenario: `${label}: ${setting}=${count(cap)}, ${count(rss.length * cap)} injected over HTTP`,
    ...{ unit: 'x', ours: Math.round(growth * 1000) / 1000, baselines: [], ratio: null },
    ratioLabel: 'RSS after all / highest RSS of the first half',
    target: 'RSS stops growing: the end <= 1.10x the highest RSS of the first half, and exactly the cap kept',
    verdict: ok ? 'PASS' : 'MISS',
    note: `RSS MB after each cap's worth: ${rss.map(mb).join(' -> ')}; kept ${count(kept)}${bad > 0 ? `; ${bad} failed posts` : ''}`,
  };
}

export default {
  method: ({ config: { memory: c } }) => [
    `Caps: ${c.capMultiple}x the cap posted over HTTP (autocannon, 8 connections) to /api/message or .../Durable, RSS read (after two full GCs) after each cap's worth, and what is kept read from GET /_sim/state. RSS stops growing when the last reading is within 1.10x of the highest reading of the run's first half.`,
  ],
  async run(ctx) {
    const { eventCap, legacyCap, capMultiple } = ctx.config.memory;
    ctx.log(`  caps under sustained injection (${capMultiple}x)`);
    const json = await capRow(ctx, 'json', eventCap, capMultiple);
    return { rows: [json, await capRow(ctx, 'legacy', legacyCap, capMultiple)] };
  },
} satisfies Scenario;
