import type { BenchContext } from '../context';
import { compare } from '../lib/compare';
import { absoluteRow } from '../lib/absolute-row';
import { inject } from '../lib/load';
import { jsonDurableMessage, legacyXml } from '../lib/payloads';
import { seededMemory, startSeededMemory, type SeededMemory } from '../lib/seeded-memory';
import { SEED_CHUNK_EVENTS } from '../lib/seed-http';
import { startProbedSimulator, type SimKind } from '../lib/simulator-process';
import { startBaseline } from '../baselines/start-baseline';
import type { Comparison, MeasureBody } from '../types';

const MB = 1024 * 1024;

interface Memory {
  rss: number;
  heapUsed: number;
}

const mb = (bytes: number) => Math.round((bytes / MB) * 10) / 10;

/** The legacy queue filled in-process (child with --expose-gc; two GCs before each read). */
async function queued(
  ctx: BenchContext,
  count: number,
): Promise<{ idle: Memory; full: Memory; perItem: number; heapPerItem: number }> {
  const server = await startProbedSimulator(ctx, 'legacy', {
    settings: { legacyQueueMax: Math.max(count, 1) },
    maxOldSpaceMb: 8192,
  });
  try {
    const idle = await server.call<Memory>('memory');
    await server.call('preload-legacy', { count });
    const full = await server.call<Memory>('memory');
    return {
      idle,
      full,
      perItem: (full.rss - idle.rss) / count,
      heapPerItem: (full.heapUsed - idle.heapUsed) / count,
    };
  } finally {
    await server.close();
  }
}

/** What each kind is injected, and which cap holds it. */
const CAPS = {
  json: {
    label: 'JSON durable store',
    setting: 'EVENT_STORE_MAX',
    settings: (cap: number) => ({ eventStoreMax: cap }),
    path: '/api/message',
    body: jsonDurableMessage(1),
    contentType: 'application/json',
  },
  legacy: {
    label: 'legacy queue',
    setting: 'LEGACY_QUEUE_MAX',
    settings: (cap: number) => ({ legacyQueueMax: cap }),
    path: '/customerapi/channel/id/Durable?payloadKey=bench',
    body: legacyXml(1),
    contentType: 'application/xml',
  },
};

/**
 * Sustained injection over HTTP (autocannon POSTs) of `multiple` x the cap, in steps of one cap,
 * reading RSS (after GC) between steps: RSS must stop growing, and exactly the cap be kept.
 */
async function capRow(ctx: BenchContext, kind: SimKind, cap: number, multiple: number): Promise<Comparison> {
  const { label, setting, settings, path, body, contentType } = CAPS[kind];
  const server = await startProbedSimulator(ctx, kind, { settings: settings(cap) });
  const samples: Array<{ injected: number; rss: number }> = [];
  let bad = 0;
  let kept = 0;
  try {
    for (let step = 1; step <= multiple; step++) {
      const result = await inject({
        port: server.port,
        path,
        body,
        contentType,
        amount: cap,
        connections: 8,
      });
      bad += result.bad;
      const memory = await server.call<Memory & { stored?: number; queued?: number }>('memory');
      kept = memory.stored ?? memory.queued ?? 0;
      samples.push({ injected: step * cap, rss: memory.rss });
    }
  } finally {
    await server.close();
  }
  const at2 = samples.find((s) => s.injected >= 2 * cap) ?? samples[0];
  const last = samples[samples.length - 1];
  const growth = at2 && last ? last.rss / at2.rss : null;
  const trail = samples.map((s) => mb(s.rss)).join(' -> ');
  const ok = growth !== null && growth <= 1.1 && kept === cap;
  return {
    scenario: `${label}: ${setting}=${cap.toLocaleString('en-US')}, ${(samples.length * cap).toLocaleString('en-US')} injected over HTTP`,
    unit: 'x',
    ours: growth === null ? null : Math.round(growth * 1000) / 1000,
    baselines: [],
    ratio: null,
    ratioLabel: 'RSS after all / RSS after 2x cap',
    target: 'RSS stops growing: <= 1.10x from 2x cap to the end, and exactly the cap kept',
    verdict: growth === null ? 'N/A' : ok ? 'PASS' : 'MISS',
    note: `RSS MB after each cap's worth: ${trail}; kept ${kept.toLocaleString('en-US')}${bad > 0 ? `; ${bad} failed posts` : ''}`,
  };
}

/** The seed rows' targets hold from the second size up: the smallest shows the fixed cost. */
const withTarget = (events: number, sizes: readonly number[]) => events > Math.min(...sizes);
const count = (n: number) => n.toLocaleString('en-US');

/** RSS and heap per stored event, and the seeding rate, of one store size filled over HTTP. */
function seededRows(run: SeededMemory, targeted: boolean): Comparison[] {
  const { events, idle, full, seeded } = run;
  const label = `JSON simulator (racedata-sim json) with ${count(events)} events seeded over POST /_sim/events`;
  const perEvent = (full.rss - idle.rss) / events;
  const cpuRate = (events * 1000) / Math.max(seeded.serverCpuMs, 1);
  return [
    absoluteRow({
      scenario: `${label}: RSS per stored event`,
      unit: 'B',
      ours: perEvent,
      ...(targeted && { target: ['<= 400 B', perEvent <= 400] as const }),
      note: `RSS ${mb(idle.rss)} MB idle -> ${mb(full.rss)} MB full, after GC; heap ${Math.round((full.heapUsed - idle.heapUsed) / events)} B per event; ${Math.round(seeded.bytes / events)} B of NDJSON an event`,
    }),
    absoluteRow({
      scenario: `${label}: heapTotal / heapUsed, old generation`,
      unit: 'x',
      ours: full.oldTotal / full.oldUsed,
      ...(targeted && { target: ['<= 1.5', full.oldTotal / full.oldUsed <= 1.5] as const }),
      note: `old generation (every heap space but the young one) ${mb(full.oldUsed)} MB used of ${mb(full.oldTotal)} MB after GC (idle: ${mb(idle.oldUsed)} / ${mb(idle.oldTotal)} MB), from GET /metrics`,
    }),
    absoluteRow({
      scenario: `${label}: heapTotal / heapUsed, whole heap`,
      unit: 'x',
      ours: full.heapTotal / full.heapUsed,
      note: `heapUsed ${mb(full.heapUsed)} MB, heapTotal ${mb(full.heapTotal)} MB after GC (idle: ${mb(idle.heapUsed)} / ${mb(idle.heapTotal)} MB); the difference is mostly the young generation's reserve, ${mb(full.heapTotal - full.oldTotal)} MB, which V8 sizes to the allocation rate of the seeding, not to what is stored`,
    }),
    absoluteRow({
      scenario: `${label}: seeding rate (wall)`,
      unit: 'events/s',
      ours: (events * 1000) / seeded.wallMs,
      ...(targeted && {
        target: ['>= 200,000 events/s', (events * 1000) / seeded.wallMs >= 200_000] as const,
      }),
      note: `${(seeded.wallMs / 1000).toFixed(2)} s wall; server CPU ${(seeded.serverCpuMs / 1000).toFixed(2)} s, ${count(Math.round(cpuRate))} events per CPU second; ${mb(seeded.bytes)} MB of NDJSON in ${Math.ceil(events / SEED_CHUNK_EVENTS)} bodies`,
    }),
  ];
}

export async function memory(ctx: BenchContext): Promise<MeasureBody> {
  const { storeSizes, legacyMessages, eventCap, legacyCap, capMultiple } = ctx.config.memory;
  const comparisons: Comparison[] = [];
  const notes: string[] = [];

  const bare = await startBaseline(ctx, 'bare-forwarder');
  const bareIdle = await bare.call<Memory>('memory');
  await bare.close();

  const runs: SeededMemory[] = [];
  for (const events of storeSizes) {
    ctx.log(`  ${events} durable events seeded into racedata-sim json`);
    runs.push(await seededMemory(ctx, events));
  }
  const first = runs[0];
  if (first) {
    comparisons.push(
      compare({
        scenario: 'JSON simulator (racedata-sim json) idle RSS',
        unit: 'MB',
        ours: mb(first.idle.rss),
        bare: mb(bareIdle.rss),
        better: 'lower',
      }),
    );
  }
  for (const run of runs) comparisons.push(...seededRows(run, withTarget(run.events, storeSizes)));
  const largest = Math.max(...storeSizes);
  ctx.log(`  ${largest} events generated at start (racedata-sim json --seed ${largest})`);
  const atStart = await startSeededMemory(ctx, largest);
  comparisons.push(
    absoluteRow({
      scenario: `JSON simulator started with --seed ${count(largest)}: generation rate (server CPU)`,
      unit: 'events/s',
      ours: (largest * 1000) / Math.max(atStart.cpuMs, 1),
      note: `${(atStart.cpuMs / 1000).toFixed(2)} s more CPU and ${(atStart.wallMs / 1000).toFixed(2)} s more wall time to the banner than a start without --seed; RSS ${Math.round(atStart.rssPerEvent)} B per generated event after GC`,
    }),
  );
  ctx.log(`  ${legacyMessages} legacy messages queued`);
  const legacyRun = await queued(ctx, legacyMessages);
  comparisons.push(
    compare({
      scenario: 'legacy simulator idle RSS',
      unit: 'MB',
      ours: mb(legacyRun.idle.rss),
      bare: mb(bareIdle.rss),
      better: 'lower',
    }),
    compare({
      scenario: `legacy simulator RSS with ${count(legacyMessages)} queued messages`,
      unit: 'MB',
      ours: mb(legacyRun.full.rss),
      bare: null,
      better: 'lower',
      note: `${Math.round(legacyRun.perItem)} B RSS / ${Math.round(legacyRun.heapPerItem)} B heap per queued message`,
    }),
  );
  ctx.log(`  caps under sustained injection (${capMultiple}x)`);
  comparisons.push(
    await capRow(ctx, 'json', eventCap, capMultiple),
    await capRow(ctx, 'legacy', legacyCap, capMultiple),
  );
  const sizes = storeSizes.map(count).join(', ');
  return {
    method: [
      `JSON store: the simulator as users run it, \`node --expose-gc --require bench/src/servers/gc-on-signal.cjs packages/cli/bin/racedata-sim.js json --port 0 --host 127.0.0.1 --no-replay\`, a fresh process per store size (${sizes} events; EVENT_STORE_MAX the size, EVENT_STORE_MAX_BYTES raised so the count alone decides). The preloaded hook does nothing but run two full GCs on SIGUSR2 and say so on stderr; every reading follows one. RSS is VmRSS from /proc/<pid>/status, heapUsed and heapTotal are the simulator's own nodejs_heap_size_used_bytes and nodejs_heap_size_total_bytes from GET /metrics. The heapTotal / heapUsed target is held on the old generation (the heap less the young generation's spaces, nodejs_heap_space_size_*_bytes{space="new"} and "new_large_object"): fragmentation of what is kept shows there, while the young generation is a reserve of up to 32 MB that V8 sizes to the allocation rate whatever the store holds (the whole heap's ratio is reported beside it).`,
      `The store is filled over HTTP with POST /_sim/events: NDJSON, ${count(SEED_CHUNK_EVENTS)} events a body, one body after another (start-list entries of about 340 bytes of JSON, a line each, spread over race days and all eight durable channels; built before the timing starts). RSS per stored event = (RSS full - RSS idle) / count. Seeding rate = events / wall time from the first body sent to the last answer; server CPU is the process's user + system time over it, from /proc/<pid>/stat. The targets hold from the second size up: at the smallest, fixed costs and a megabyte of noise swamp a per-event figure.`,
      'The `--seed N` row starts the same command twice, with and without `--seed N` at the largest size (the store generated in the process before it listens), and charges the difference in CPU time at the banner (/proc) to the generation; RSS per event is read the same way as above.',
      "The bare baseline of the idle rows is the idle bare Node http + ws forwarder (RSS read inside it after two GCs); it runs under tsx, the harness's TypeScript loader, which adds its own RSS, while racedata-sim runs its plain JavaScript build.",
      'Legacy queue: still the simulator built in-process into a forked child (--expose-gc, two GCs before each read inside it), messages queued through its bus; per-item cost = (RSS full - RSS idle) / count.',
      `Caps: still the in-process child; ${capMultiple}x the cap posted over HTTP (autocannon, 8 connections) to /api/message or .../Durable, RSS read (after two GCs) after each cap's worth.`,
    ],
    comparisons,
    notes,
    profiles: [],
  };
}
