import { PER_EVENT_OVERHEAD } from '@racedata/json-sim';
import { sleep } from '../../harness/http';
import { rssBytes, withServer } from '../../harness/processes';
import { absoluteRow, count } from '../../harness/rows';
import { reading, SEED_CHUNK_EVENTS, seedStore, simState, startStore } from '../../harness/store';
import type { BenchContext, Scenario } from '../../types';
import { bareIdleRss, GC_METHOD, idleRow, mb } from './_memory';

/** RSS is read this long after a fill as users meet it (no GC asked for), then after GC. */
const SETTLE_MS = 3000;

/** The simulator idle, then filled over POST /_sim/events; its events' own JSON from /_sim/state. */
const seeded = (ctx: BenchContext, events: number) =>
  withServer(startStore(ctx, events), async (sim) => {
    const [idle, seeding] = [await reading(sim), await seedStore(sim, events)];
    const settled = await sleep(SETTLE_MS).then(() => rssBytes(sim.pid));
    const json = (((await simState(sim.port)).store?.bytes ?? NaN) - PER_EVENT_OVERHEAD * events) / events;
    return { events, idle, settled, json, full: await reading(sim), seeding };
  });

type Run = Awaited<ReturnType<typeof seeded>>;

/** One store size's rows: targets from 100,000 events (RSS) or a million (beyond the JSON) up. */
function rows({ events, idle, json, full, seeding, ...run }: Run, targeted: boolean) {
  const label = `JSON simulator (racedata-sim json) with ${count(events)} events seeded over POST /_sim/events`;
  const perEvent = (full.rss - idle.rss) / events;
  const settled = (run.settled - idle.rss) / events;
  const limit = 1.5 * (json + 100);
  const rate = (events * 1000) / seeding.wallMs;
  const old = full.oldTotal / full.oldUsed;
  const jsonNote = `${Math.round(json)} B of stored JSON an event (${Math.round(seeding.bytes / events)} B of NDJSON posted)`;
  return [
    absoluteRow({
      ...{ scenario: `${label}: RSS per stored event, ${SETTLE_MS / 1000} s after the fill, no GC` },
      ...{ unit: 'B', ours: settled },
      ...(events >= 100_000 && { target: ['<= 1.5 x (its JSON + 100 B)', settled <= limit] as const }),
      note: `RSS ${mb(idle.rss)} MB idle -> ${mb(run.settled)} MB; ${jsonNote}: limit ${Math.round(limit)} B`,
    }),
    absoluteRow({
      ...{ scenario: `${label}: RSS per stored event beyond its own JSON, after GC`, unit: 'B' },
      ours: perEvent - json,
      ...(events >= 1_000_000 && { target: ['<= 100 B', perEvent - json <= 100] as const }),
      note: `RSS ${mb(idle.rss)} MB idle -> ${mb(full.rss)} MB full, after GC: ${Math.round(perEvent)} B an event; ${jsonNote}; heap ${Math.round((full.heapUsed - idle.heapUsed) / events)} B per event`,
    }),
    absoluteRow({
      ...{ scenario: `${label}: heapTotal / heapUsed, old generation`, unit: 'x', ours: old },
      ...(targeted && { target: ['<= 1.5', old <= 1.5] as const }),
      note: `old generation (every heap space but the young one) ${mb(full.oldUsed)} MB used of ${mb(full.oldTotal)} MB after GC (idle: ${mb(idle.oldUsed)} / ${mb(idle.oldTotal)} MB), from GET /metrics; the whole heap ${mb(full.heapUsed)} of ${mb(full.heapTotal)} MB, the rest the young generation's reserve`,
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
    `JSON store: \`racedata-sim json --port 0 --host 127.0.0.1 --no-replay\`, a fresh process per store size (${config.memory.storeSizes.map(count).join(', ')} events; EVENT_STORE_MAX the size, EVENT_STORE_MAX_BYTES raised so the count alone decides). The heapTotal / heapUsed target is held on the old generation (the heap less the young generation's spaces, nodejs_heap_space_size_*_bytes{space="new"} and "new_large_object"): fragmentation of what is kept shows there, while the young generation is a reserve of up to 32 MB that V8 sizes to the allocation rate whatever the store holds (the whole heap is in the row's note).`,
    `The store is filled over HTTP with POST /_sim/events: NDJSON, ${count(SEED_CHUNK_EVENTS)} events a body, one body after another (start-list entries of about 340 bytes of JSON, a line each, spread over race days and all eight durable channels; built before the timing starts). RSS per stored event = (RSS full - RSS idle) / count, read ${SETTLE_MS / 1000} s after the last body was answered as it is (what a user sees), then after two full GCs. An event's own JSON is the event as stored and served, with created_at and eventId (GET /_sim/state's store bytes less the store's fixed ${PER_EVENT_OVERHEAD} B an event of accounting). Seeding rate = events / wall time from the first body sent to the last answer; server CPU is the process's user + system time over it, from /proc/<pid>/stat. The targets hold from the second size up: at the smallest, fixed costs and a megabyte of noise swamp a per-event figure.`,
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
