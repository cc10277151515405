import { shouldProfile, type BenchContext } from '../context';
import type { ChildServer } from '../lib/child-server';
import { compare } from '../lib/compare';
import { httpRequest } from '../lib/http-client';
import { load, type LoadResult } from '../lib/load';
import { JSON_TOKEN, dayString, layoutDays, type StoreLayout } from '../lib/payloads';
import { profileSim } from '../lib/profiled';
import { startBaseline, startSim } from '../lib/subjects';
import { peerDataFiles, startPeer, type RunningPeer } from '../peer-tools/peer-run';
import { PEER_NAMES, PEER_PAGE_PATH, type PeerName } from '../peer-tools/peer-servers';
import type { Comparison, Figure, MeasureResult, ProfileSummary } from '../types';

const AUTH = { authorization: `Bearer ${JSON_TOKEN}` };

export interface ReadScenario {
  readonly label: string;
  readonly events: number;
  /** A path per request, walking the pages; `sample` is one representative page. */
  paths(lastEventId: number): { next: () => string; sample: string };
}

function firstIdOfDay(day: number, layout: StoreLayout): number {
  return Math.ceil((day * layout.count) / layout.days) + 1;
}

/** Also the read shape of control-plane-cost. */
export const PAGING = (events: number): ReadScenario => ({
  label: `GET /customerapi/events?lastEventId=..&limit=100 over ${events.toLocaleString('en-US')} stored events`,
  events,
  paths: (last) => {
    // Start points spread over the whole log; each page is full (far enough from the end).
    const span = Math.max(1, last - 1000);
    let i = 0;
    return {
      next: () => `/customerapi/events?lastEventId=${((i++ * 7919) % span) + 1}&limit=100`,
      sample: `/customerapi/events?lastEventId=${Math.floor(span / 2)}&limit=100`,
    };
  },
});

const FILTERED = (events: number): ReadScenario => ({
  label: `GET /customerapi/filtered-events?channel&startDate&endDate over ${events.toLocaleString('en-US')} stored events`,
  events,
  paths: () => {
    const layout = { count: events, days: layoutDays(events) };
    const width = layout.days >= 40 ? 10 : Math.max(1, Math.floor(layout.days / 3));
    const from = Math.floor(layout.days * 0.4);
    const to = from + width - 1;
    const query = `channel=RaceDayTrot&startDate=${dayString(from)}&endDate=${dayString(to)}&limit=100`;
    const low = firstIdOfDay(from, layout);
    // Leave room for a full page of RaceDayTrot (1 event in 8) before the range ends.
    const span = Math.max(1, firstIdOfDay(to + 1, layout) - low - 1000);
    let i = 0;
    return {
      next: () => `/customerapi/filtered-events?${query}&lastEventId=${low + ((i++ * 7919) % span)}`,
      sample: `/customerapi/filtered-events?${query}&lastEventId=${low + Math.floor(span / 2)}`,
    };
  },
});

interface Side {
  readonly name: string;
  readonly port: number;
  readonly path: string | (() => string);
  readonly headers?: Record<string, string>;
  readonly results: LoadResult[];
}

async function runScenario(
  ctx: BenchContext,
  scenario: ReadScenario,
): Promise<{ row: Comparison; profile?: ProfileSummary }> {
  const { connections, roundSeconds, rounds } = ctx.config.read;
  ctx.log(`  ${scenario.label}: ${connections} connections, ${rounds} rounds of ${roundSeconds} s per side`);
  const maxOldSpaceMb = 8192;
  const [sim, bareServer] = await Promise.all([
    startSim(ctx, 'json', { maxOldSpaceMb }),
    startBaseline(ctx, 'bare-static'),
  ]);
  const peersRunning: RunningPeer[] = [];
  const notes: string[] = [];
  let row: Comparison;
  let paths: { next: () => string; sample: string };
  try {
    const loaded = await sim.server.call<{ lastEventId: number; ms: number }>('preload', {
      count: scenario.events,
    });
    ctx.log(`    stored ${scenario.events} events in ${(loaded.ms / 1000).toFixed(1)} s`);
    paths = scenario.paths(loaded.lastEventId);
    const sample = await httpRequest({ port: sim.server.port, path: paths.sample, headers: AUTH });
    if (sample.status !== 200) throw new Error(`${paths.sample}: HTTP ${sample.status}`);
    await bareServer.call('set-body', { base64: sample.body.toString('base64') });
    const sides: Side[] = [
      { name: 'ours', port: sim.server.port, path: paths.next, headers: AUTH, results: [] },
      { name: 'bare Node', port: bareServer.port, path: '/customerapi/events', results: [] },
    ];
    if (ctx.peers) {
      const files = peerDataFiles(ctx.rawDir, sample.body.toString('utf8'));
      const tools = ctx.peers;
      const started = await Promise.allSettled(PEER_NAMES.map((name) => startPeer(tools, name, files[name])));
      started.forEach((result, k) => {
        const name = PEER_NAMES[k] as PeerName;
        if (result.status === 'fulfilled') {
          peersRunning.push(result.value);
          sides.push({ name, port: result.value.port, path: PEER_PAGE_PATH[name], results: [] });
        } else {
          notes.push(`${name} could not be started: ${(result.reason as Error).message}`);
        }
      });
    }
    if (!ctx.config.quick) for (const side of sides) await load({ ...side, connections, seconds: 1 });
    for (let r = 0; r < rounds; r++) {
      const order = sides.map((_, k) => sides[(k + r) % sides.length] as Side);
      for (const side of order)
        side.results.push(await load({ ...side, connections, seconds: roundSeconds }));
    }
    const rate = (side: Side | undefined): number | null =>
      side && side.results.length > 0
        ? side.results.reduce((a, b) => a + b.requestsPerSecond, 0) / side.results.length
        : null;
    const bytes = (side: Side) => Math.round(side.results[0]?.bytesPerResponse ?? 0);
    const peers: Figure[] = PEER_NAMES.map((name) => {
      const side = sides.find((s) => s.name === name);
      if (side) return { name, value: rate(side), note: `${bytes(side)} B/response` };
      return { name, value: null, note: ctx.peers ? 'failed to start' : 'not installed' };
    });
    for (const side of sides) {
      const bad = side.results.reduce((a, b) => a + b.bad, 0);
      if (bad > 0) notes.push(`${side.name}: ${bad} failed requests`);
    }
    const ours = sides[0] as Side;
    // Each round's figure, so a stalled round shows rather than hides inside the mean.
    const perRound = (side: Side) => side.results.map((r) => Math.round(r.requestsPerSecond)).join(' / ');
    notes.push(`rounds, req/s: ours ${perRound(ours)}; bare ${perRound(sides[1] as Side)}`);
    row = compare({
      scenario: scenario.label,
      unit: 'req/s',
      ours: rate(ours),
      bare: rate(sides[1]),
      peers,
      better: 'higher',
      bound: 0.5,
      beatPeers: true,
      target: '>= 50% of bare and ahead of every peer',
      note: [`${bytes(ours)} B/response`, ...notes].join('; '),
    });
  } finally {
    await Promise.all([...peersRunning.map((p) => p.stop()), sim.server.close(), bareServer.close()]);
  }
  if (!shouldProfile(ctx, row.verdict)) return { row };
  const profile = await profileSim(
    ctx,
    scenario.label,
    'json',
    { maxOldSpaceMb },
    {
      setup: async (server: ChildServer) => {
        const loaded = await server.call<{ lastEventId: number }>('preload', { count: scenario.events });
        paths = scenario.paths(loaded.lastEventId);
      },
      run: async (server: ChildServer) => {
        await load({
          port: server.port,
          path: paths.next,
          headers: AUTH,
          connections,
          seconds: ctx.config.profileMs / 1000,
        });
      },
      teardown: () => undefined,
    },
  );
  return { row, profile };
}

export async function readThroughput(ctx: BenchContext): Promise<MeasureResult> {
  const started = Date.now();
  const { connections, roundSeconds, rounds, pagingEvents, filteredEvents } = ctx.config.read;
  const comparisons: Comparison[] = [];
  const profiles: ProfileSummary[] = [];
  for (const scenario of [PAGING(pagingEvents), FILTERED(filteredEvents)]) {
    const { row, profile } = await runScenario(ctx, scenario);
    comparisons.push(row);
    if (profile) profiles.push(profile);
  }
  const notes = ctx.peers ? [] : ['peers skipped: not installed (quick mode does not install them)'];
  if (ctx.profileMode === 'never') notes.push('quick mode: no profile is taken on a miss');
  return {
    id: 'read-throughput',
    title: 'Read throughput',
    method: [
      `autocannon in the harness process, ${connections} connections, no pipelining; ${rounds} rounds of ${roundSeconds} s per side, the order rotating each round (after a 1 s warm-up each, except in quick mode).`,
      'Ours pages through the store with a different lastEventId on every request (every page full, 100 events); the events are stored through the bus before the run, spread over race days and all eight durable channels.',
      'Bare Node serves the exact bytes of one of our pages, pre-serialised. Mockoon CLI and json-server serve the same page as a canned response (Mockoon: templating off; json-server: re-serialised with its default 2-space indentation).',
    ],
    comparisons,
    notes,
    profiles,
    durationMs: Date.now() - started,
  };
}
