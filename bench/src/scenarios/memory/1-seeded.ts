import { withServer } from '../../harness/processes';
import { absoluteRow, count } from '../../harness/rows';
import { reading, SEED_CHUNK_EVENTS, seedStore, startStore } from '../../harness/store';
import type { BenchContext, Scenario } from '../../types';
import { bareIdleRss, GC_METHOD, idleRow, mb } from './_memory';

/** The JSON simulator idle, then filled with `events` over POST /_sim/events. */
const seeded = (ctx: BenchContext, events: number) =>
  withServer(startStore(ctx, events), async (sim) => {
    const idle = await reading(sim);
    const seeding = await seedStore(sim, events);
    return { events, idle, full: await reading(sim), seeding };
  });

/** RSS and heap per stored event, and the seeding rate, of one store size (targets from the second size up). */
function rows({ events, idle, full, seeding }: Awaited<ReturnType<typeof seeded>>, targeted: boolean) {
  const label = `JSON simulator (racedata-sim json) with ${count(events)} events seeded over POST /_sim/events`;
  const perEvent = (full.rss - idle.rss) / events;
  const rate = (events * 1000) / seeding.wallMs;
  const old = full.oldTotal / full.oldUsed;
  return [
    absoluteRow({
      ...{ scenario: `${label}: RSS per stored event`, unit: 'B', ours: perEvent },
      ...(targeted && { target: ['<= 400 B', perEvent <= 400] as const }),
      note: `RSS ${mb(idle.rss)} MB idle -> ${mb(full.rss)} MB full, after GC; heap ${Math.round((full.heapUsed - idle.heapUsed) / events)} B per event; ${Math.round(seeding.bytes / events)} B of NDJSON an event`,
    }),
    absoluteRow({
      ...{ scenario: `${label}: heapTotal / heapUsed, old generation`, unit: 'x', ours: old },
      ...(targeted && { target: ['<= 1.5', old <= 1.5] as const }),
      note: `old generation (every heap space but the young one) ${mb(full.oldUsed)} MB used of ${mb(full.oldTotal)} MB after GC (idle: ${mb(idle.oldUsed)} / ${mb(idle.oldTotal)} MB), from GET /metrics`,
    }),
    absoluteRow({
      ...{
        scenario: `${label}: heapTotal / heapUsed, whole heap`,
        unit: 'x',
        ours: full.heapTotal / full.heapUsed,
      },
      note: `heapUsed ${mb(full.heapUsed)} MB, heapTotal ${mb(full.heapTotal)} MB after GC (idle: ${mb(idle.heapUsed)} / ${mb(idle.heapTotal)} MB); the difference is mostly the young generation's reserve, ${mb(full.heapTotal - full.oldTotal)} MB, which V8 sizes to the allocation rate of the seeding, not to what is stored`,
    }),
    absoluteRow({
      ...{ scenario: `${label}: seeding rate (wall)`, unit: 'events/s', ours: rate },
      ...(targeted && { target: ['>= 200,000 events/s', rate >= 200_000] as const }),
      note: `${(seeding.wallMs / 1000).toFixed(2)} s wall; server CPU ${(seeding.serverCpuMs / 1000).toFixed(2)} s, ${count(Math.round((events * 1000) / Math.max(seeding.serverCpuMs, 1)))} events per CPU second; ${mb(seeding.bytes)} MB of NDJSON in ${Math.ceil(events / SEED_CHUNK_EVENTS)} bodies`,
    }),
  ];
}

export default {
  method: ({ config }) => [
    GC_METHOD,
    `JSON store: \`racedata-sim json --port 0 --host 127.0.0.1 --no-replay\`, a fresh process per store size (${config.memory.storeSizes.map(count).join(', ')} events; EVENT_STORE_MAX the size, EVENT_STORE_MAX_BYTES raised so the count alone decides). The heapTotal / heapUsed target is held on the old generation (the heap less the young generation's spaces, nodejs_heap_space_size_*_bytes{space="new"} and "new_large_object"): fragmentation of what is kept shows there, while the young generation is a reserve of up to 32 MB that V8 sizes to the allocation rate whatever the store holds (the whole heap's ratio is reported beside it).`,
    `The store is filled over HTTP with POST /_sim/events: NDJSON, ${count(SEED_CHUNK_EVENTS)} events a body, one body after another (start-list entries of about 340 bytes of JSON, a line each, spread over race days and all eight durable channels; built before the timing starts). RSS per stored event = (RSS full - RSS idle) / count. Seeding rate = events / wall time from the first body sent to the last answer; server CPU is the process's user + system time over it, from /proc/<pid>/stat. The targets hold from the second size up: at the smallest, fixed costs and a megabyte of noise swamp a per-event figure.`,
    'The bare baseline of the idle rows is the idle bare Node http + ws server (bench/src/servers/bare-node.cjs, plain node with the same hook), RSS read the same way.',
  ],
  async run(ctx) {
    const { storeSizes } = ctx.config.memory;
    const bare = await bareIdleRss();
    const runs = [];
    for (const events of storeSizes) {
      ctx.log(`  ${events} durable events seeded into racedata-sim json`);
      runs.push(await seeded(ctx, events));
    }
    const idle = idleRow('JSON simulator (racedata-sim json) idle RSS', runs[0]?.idle.rss ?? NaN, bare);
    return { rows: [idle, ...runs.flatMap((run) => rows(run, run.events > Math.min(...storeSizes)))] };
  },
} satisfies Scenario;
