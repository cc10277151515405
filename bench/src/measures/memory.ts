import type { BenchContext } from '../context';
import type { ChildServer } from '../lib/child-server';
import { compare } from '../lib/compare';
import { inject } from '../lib/load';
import { jsonDurableMessage, legacyXml } from '../lib/payloads';
import { startBaseline, startSim, type SimKind } from '../lib/subjects';
import type { Comparison, MeasureResult } from '../types';

const MB = 1024 * 1024;

interface Memory {
  rss: number;
  heapUsed: number;
}

const mb = (bytes: number) => Math.round((bytes / MB) * 10) / 10;

/** RSS before and after filling the store in-process (child with --expose-gc; two GCs before each read). */
async function stored(
  ctx: BenchContext,
  kind: SimKind,
  count: number,
): Promise<{ idle: Memory; full: Memory; perItem: number; heapPerItem: number }> {
  const settings =
    kind === 'json' ? { eventStoreMax: Math.max(count, 1) } : { legacyQueueMax: Math.max(count, 1) };
  const { server } = await startSim(ctx, kind, { settings, maxOldSpaceMb: 8192 });
  try {
    const idle = await server.call<Memory>('memory');
    await server.call(kind === 'json' ? 'preload' : 'preload-legacy', { count });
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

interface CapRun {
  readonly samples: Array<{ injected: number; rss: number }>;
  readonly bad: number;
  readonly kept: number;
}

/**
 * Sustained injection over HTTP (autocannon POSTs) of `multiple` x the cap, in steps of one cap,
 * reading RSS (after GC) between steps.
 */
async function capped(ctx: BenchContext, kind: SimKind, cap: number, multiple: number): Promise<CapRun> {
  const settings = kind === 'json' ? { eventStoreMax: cap } : { legacyQueueMax: cap };
  const { server } = await startSim(ctx, kind, { settings });
  const samples: CapRun['samples'] = [];
  let bad = 0;
  let kept = 0;
  try {
    const target = injection(kind, server);
    for (let step = 1; step <= multiple; step++) {
      const result = await inject({ ...target, amount: cap, connections: 8 });
      bad += result.bad;
      const memory = await server.call<Memory & { stored?: number; queued?: number }>('memory');
      kept = memory.stored ?? memory.queued ?? 0;
      samples.push({ injected: step * cap, rss: memory.rss });
    }
  } finally {
    await server.close();
  }
  return { samples, bad, kept };
}

function injection(kind: SimKind, server: ChildServer) {
  return kind === 'json'
    ? {
        port: server.port,
        path: '/api/message',
        body: jsonDurableMessage(1),
        contentType: 'application/json',
      }
    : {
        port: server.port,
        path: '/customerapi/channel/id/Durable?payloadKey=bench',
        body: legacyXml(1),
        contentType: 'application/xml',
      };
}

function capRow(label: string, setting: string, cap: number, run: CapRun): Comparison {
  const at2 = run.samples.find((s) => s.injected >= 2 * cap) ?? run.samples[0];
  const last = run.samples[run.samples.length - 1];
  const growth = at2 && last ? last.rss / at2.rss : null;
  const trail = run.samples.map((s) => mb(s.rss)).join(' -> ');
  const keptOk = run.kept === cap;
  const ok = growth !== null && growth <= 1.1 && keptOk;
  return {
    scenario: `${label}: ${setting}=${cap.toLocaleString('en-US')}, ${(run.samples.length * cap).toLocaleString('en-US')} injected over HTTP`,
    unit: 'x',
    ours: growth === null ? null : Math.round(growth * 1000) / 1000,
    baselines: [],
    ratio: null,
    ratioLabel: 'RSS after all / RSS after 2x cap',
    target: 'RSS stops growing: <= 1.10x from 2x cap to the end, and exactly the cap kept',
    verdict: growth === null ? 'N/A' : ok ? 'PASS' : 'MISS',
    note: `RSS MB after each cap's worth: ${trail}; kept ${run.kept.toLocaleString('en-US')}${run.bad > 0 ? `; ${run.bad} failed posts` : ''}`,
  };
}

export async function memory(ctx: BenchContext): Promise<MeasureResult> {
  const started = Date.now();
  const { durableEvents, legacyMessages, eventCap, legacyCap, capMultiple } = ctx.config.memory;
  const comparisons: Comparison[] = [];
  const notes: string[] = [];
  const legacy = ctx.legacyMissing === undefined;
  if (!legacy) notes.push(`legacy memory not measured: ${ctx.legacyMissing}`);

  const bare = await startBaseline(ctx, 'bare-forwarder');
  const bareIdle = await bare.call<Memory>('memory');
  await bare.close();

  ctx.log(`  ${durableEvents} durable events stored`);
  const json = await stored(ctx, 'json', durableEvents);
  comparisons.push(
    compare({
      scenario: 'JSON simulator idle RSS',
      unit: 'MB',
      ours: mb(json.idle.rss),
      bare: mb(bareIdle.rss),
      better: 'lower',
    }),
    compare({
      scenario: `JSON simulator RSS with ${durableEvents.toLocaleString('en-US')} durable events stored`,
      unit: 'MB',
      ours: mb(json.full.rss),
      bare: null,
      better: 'lower',
      note: `${Math.round(json.perItem)} B RSS / ${Math.round(json.heapPerItem)} B heap per stored event`,
    }),
  );
  if (legacy) {
    ctx.log(`  ${legacyMessages} legacy messages queued`);
    const queued = await stored(ctx, 'legacy', legacyMessages);
    comparisons.push(
      compare({
        scenario: 'legacy simulator idle RSS',
        unit: 'MB',
        ours: mb(queued.idle.rss),
        bare: mb(bareIdle.rss),
        better: 'lower',
      }),
      compare({
        scenario: `legacy simulator RSS with ${legacyMessages.toLocaleString('en-US')} queued messages`,
        unit: 'MB',
        ours: mb(queued.full.rss),
        bare: null,
        better: 'lower',
        note: `${Math.round(queued.perItem)} B RSS / ${Math.round(queued.heapPerItem)} B heap per queued message`,
      }),
    );
  }
  ctx.log(`  caps under sustained injection (${capMultiple}x)`);
  comparisons.push(
    capRow(
      'JSON durable store',
      'EVENT_STORE_MAX',
      eventCap,
      await capped(ctx, 'json', eventCap, capMultiple),
    ),
  );
  if (legacy) {
    comparisons.push(
      capRow(
        'legacy queue',
        'LEGACY_QUEUE_MAX',
        legacyCap,
        await capped(ctx, 'legacy', legacyCap, capMultiple),
      ),
    );
  }
  return {
    id: 'memory',
    title: 'Memory',
    method: [
      'Resident set size read inside the simulator process after two forced GCs (--expose-gc); the bare baseline is the idle bare Node http + ws forwarder.',
      `Stored figures: events (a ~330-byte start-list payload each, a fresh object per event) stored through the simulator's bus in-process; per-item cost = (RSS full - RSS idle) / count.`,
      `Caps: ${capMultiple}x the cap posted over HTTP (autocannon, 8 connections) to /api/message or .../Durable, RSS read after each cap's worth.`,
    ],
    comparisons,
    notes,
    profiles: [],
    durationMs: Date.now() - started,
  };
}
