import { shouldProfile, type BenchContext } from '../context';
import type { ChildServer } from '../lib/child-server';
import { charged } from '../lib/charged';
import { compare } from '../lib/compare';
import { httpRequest } from '../lib/http-client';
import { load, type LoadResult } from '../lib/load';
import { JSON_TOKEN, dayString, layoutDays, type StoreLayout } from '../lib/payloads';
import { profileSim } from '../lib/profiled';
import { median, round } from '../lib/stats';
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

/**
 * trackId + raceNr + startNr over the whole date range, a combination no stored event has:
 * trackId 900 is every 20th event (eventId divisible by 20, so raceNr 1), RaceDayTrot every 8th,
 * and startNr 2 would need an odd eventId. The simulator answers 204 after looking at the range.
 */
function noMatchPath(events: number): string {
  const days = layoutDays(events);
  return (
    `/customerapi/filtered-events?channel=RaceDayTrot&startDate=${dayString(0)}&endDate=${dayString(days - 1)}` +
    '&trackId=900&raceNr=1&startNr=2&limit=100'
  );
}

const NO_MATCH_LABEL = (events: number) =>
  `GET /customerapi/filtered-events?channel&startDate&endDate&trackId&raceNr&startNr matching nothing (whole date range) over ${events.toLocaleString('en-US')} stored events`;

interface Side {
  readonly name: string;
  readonly port: number;
  /** The process serving this side, when its CPU time can be read (ours and bare). */
  readonly server?: ChildServer;
  readonly path: string | (() => string);
  readonly headers?: Record<string, string>;
  readonly results: LoadResult[];
  /** Server CPU (user + system) per 1,000 requests, per turn. */
  readonly cpu: number[];
}

const rates = (side: Side) => side.results.map((r) => r.requestsPerSecond);
/** Per-round ratios of two sides' figures that ran in the same rounds. */
const perRound = (a: readonly number[], b: readonly number[]) => a.map((x, k) => x / (b[k] as number));
const medianOrNull = (values: readonly number[]) => (values.length > 0 ? median(values) : null);
const ms = (value: number | null) => (value === null ? '—' : `${round(value, 2)} ms`);

async function runScenario(
  ctx: BenchContext,
  scenario: ReadScenario,
  withNoMatch: boolean,
): Promise<{ rows: Comparison[]; profile?: ProfileSummary }> {
  const { connections, roundSeconds, rounds } = ctx.config.read;
  ctx.log(
    `  ${scenario.label}: ${connections} connections, ${rounds} paired rounds of ${roundSeconds} s per side`,
  );
  const maxOldSpaceMb = 8192;
  const [sim, bareServer] = await Promise.all([
    startSim(ctx, 'json', { maxOldSpaceMb }),
    startBaseline(ctx, 'bare-static'),
  ]);
  const peersRunning: RunningPeer[] = [];
  const notes: string[] = [];
  const rows: Comparison[] = [];
  let paths: { next: () => string; sample: string };
  try {
    const loaded = await sim.server.call<{ lastEventId: number; ms: number }>('preload', {
      count: scenario.events,
    });
    ctx.log(`    stored ${scenario.events} events in ${(loaded.ms / 1000).toFixed(1)} s`);
    paths = scenario.paths(loaded.lastEventId);
    const sample = await httpRequest({ port: sim.server.port, path: paths.sample, headers: AUTH });
    if (sample.status !== 200) throw new Error(`${paths.sample}: HTTP ${sample.status}`);
    await bareServer.call('set-body', {
      base64: sample.body.toString('base64'),
      authorization: AUTH.authorization,
    });
    // Bare takes the same requests: the same walk of paths with their query strings, the same header.
    const bareSample = await httpRequest({ port: bareServer.port, path: paths.sample, headers: AUTH });
    if (bareSample.status !== 200 || bareSample.body.length !== sample.body.length) {
      throw new Error(
        `bare Node answered ${paths.sample} with HTTP ${bareSample.status}, ${bareSample.body.length} B`,
      );
    }
    const ours: Side = {
      name: 'ours',
      port: sim.server.port,
      server: sim.server,
      path: paths.next,
      headers: AUTH,
      results: [],
      cpu: [],
    };
    const bare: Side = {
      name: 'bare Node',
      port: bareServer.port,
      server: bareServer,
      path: scenario.paths(loaded.lastEventId).next,
      headers: AUTH,
      results: [],
      cpu: [],
    };
    // A query that matches nothing against a page read of /events, both on our simulator.
    let noMatch: { query: Side; page: Side } | undefined;
    if (withNoMatch) {
      const path = noMatchPath(scenario.events);
      const answer = await httpRequest({ port: sim.server.port, path, headers: AUTH });
      if (answer.status !== 204) throw new Error(`${path}: HTTP ${answer.status}, expected 204`);
      const side = (name: string, p: Side['path']): Side => ({
        name,
        port: sim.server.port,
        server: sim.server,
        path: p,
        headers: AUTH,
        results: [],
        cpu: [],
      });
      noMatch = {
        query: side('no match', path),
        page: side('page read', PAGING(scenario.events).paths(loaded.lastEventId).next),
      };
    }
    const peerSides: Side[] = [];
    if (ctx.peers) {
      const files = peerDataFiles(ctx.rawDir, sample.body.toString('utf8'));
      const tools = ctx.peers;
      const started = await Promise.allSettled(PEER_NAMES.map((name) => startPeer(tools, name, files[name])));
      started.forEach((result, k) => {
        const name = PEER_NAMES[k] as PeerName;
        if (result.status === 'fulfilled') {
          peersRunning.push(result.value);
          peerSides.push({ name, port: result.value.port, path: PEER_PAGE_PATH[name], results: [], cpu: [] });
        } else {
          notes.push(`${name} could not be started: ${(result.reason as Error).message}`);
        }
      });
    }
    const all = [ours, bare, ...(noMatch ? [noMatch.query, noMatch.page] : []), ...peerSides];
    const turn = async (side: Side, seconds: number, keep = true) => {
      const run = async () => {
        const result = await load({ ...side, connections, seconds });
        return { rate: result.requestsPerSecond, units: result.requests, result };
      };
      if (!side.server) {
        const { result } = await run();
        if (keep) side.results.push(result);
        return;
      }
      const { result, cpuMsPer1000 } = await charged(side.server, run);
      if (keep) {
        side.results.push(result);
        side.cpu.push(cpuMsPer1000);
      }
    };
    for (const side of all) await turn(side, ctx.config.quick ? 0.1 : 1, false);
    // Paired rounds: ours and bare back to back, which goes first alternating, so drift and other
    // load on the machine fall on both alike; then the no-match pair alike; then the peers.
    const pair = async (r: number, a: Side, b: Side) => {
      for (const side of r % 2 === 0 ? [a, b] : [b, a]) await turn(side, roundSeconds);
    };
    for (let r = 0; r < rounds; r++) {
      await pair(r, ours, bare);
      if (noMatch) await pair(r, noMatch.query, noMatch.page);
      for (const side of peerSides) await turn(side, roundSeconds);
    }
    const bytes = (side: Side) => Math.round(side.results[0]?.bytesPerResponse ?? 0);
    const peers: Figure[] = PEER_NAMES.map((name) => {
      const side = peerSides.find((s) => s.name === name);
      if (side) return { name, value: medianOrNull(rates(side)), note: `${bytes(side)} B/response` };
      return { name, value: null, note: ctx.peers ? 'failed to start' : 'not installed' };
    });
    for (const side of all) {
      const bad = side.results.reduce((a, b) => a + b.bad, 0);
      if (bad > 0) notes.push(`${side.name}: ${bad} failed requests`);
    }
    // Each round's figure, so a stalled round shows rather than hides inside the median.
    const shown = (a: Side, b: Side) =>
      a.results
        .map(
          (x, k) => `${Math.round(x.requestsPerSecond)}/${Math.round(b.results[k]?.requestsPerSecond ?? 0)}`,
        )
        .join(', ');
    rows.push(
      compare({
        scenario: scenario.label,
        unit: 'req/s',
        ours: medianOrNull(rates(ours)),
        bare: medianOrNull(rates(bare)),
        peers,
        better: 'higher',
        bound: 0.5,
        beatPeers: true,
        target: '>= 50% of bare and ahead of every peer',
        ratios: perRound(rates(ours), rates(bare)),
        note: [
          `${bytes(ours)} B/response with headers (bare ${bytes(bare)} B)`,
          `rounds ours/bare req/s: ${shown(ours, bare)}`,
          ...notes,
        ].join('; '),
      }),
      compare({
        scenario: `${scenario.label}: server CPU per 1,000 requests`,
        unit: 'ms',
        ours: medianOrNull(ours.cpu),
        bare: medianOrNull(bare.cpu),
        better: 'lower',
        ratios: perRound(ours.cpu, bare.cpu),
        note: 'user + system time of each server process over each turn (medians); less sensitive than the rate to the load generator and to other load on the machine',
      }),
    );
    if (noMatch) {
      const { query, page } = noMatch;
      const p50 = (side: Side) => medianOrNull(side.results.map((x) => x.p50Ms));
      rows.push(
        compare({
          scenario: NO_MATCH_LABEL(scenario.events),
          unit: 'req/s',
          ours: medianOrNull(rates(query)),
          bare: medianOrNull(rates(page)),
          bareName: 'GET /events page read, same store',
          better: 'higher',
          bound: 0.5,
          target: 'costs <= 2x a page read (req/s >= 0.5x)',
          ratios: perRound(rates(query), rates(page)),
          ratioLabel: 'no match / page read, median of paired rounds (min–max)',
          note: [
            `204, no body; p50 ${ms(p50(query))} against ${ms(p50(page))}`,
            `server CPU per 1,000 requests ${ms(medianOrNull(query.cpu))} against ${ms(medianOrNull(page.cpu))}`,
            `rounds no match/page req/s: ${shown(query, page)}`,
          ].join('; '),
        }),
      );
    }
  } finally {
    await Promise.all([...peersRunning.map((p) => p.stop()), sim.server.close(), bareServer.close()]);
  }
  const row = rows[0] as Comparison;
  if (!shouldProfile(ctx, row.verdict)) return { rows };
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
  return { rows, profile };
}

export async function readThroughput(ctx: BenchContext): Promise<MeasureResult> {
  const started = Date.now();
  const { connections, roundSeconds, rounds, pagingEvents, filteredEvents } = ctx.config.read;
  const comparisons: Comparison[] = [];
  const profiles: ProfileSummary[] = [];
  for (const [scenario, withNoMatch] of [
    [PAGING(pagingEvents), false],
    [FILTERED(filteredEvents), true],
  ] as const) {
    const { rows, profile } = await runScenario(ctx, scenario, withNoMatch);
    comparisons.push(...rows);
    if (profile) profiles.push(profile);
  }
  const notes = ctx.peers ? [] : ['peers skipped: not installed (quick mode does not install them)'];
  if (ctx.profileMode === 'never') notes.push('quick mode: no profile is taken on a miss');
  return {
    id: 'read-throughput',
    title: 'Read throughput',
    method: [
      `autocannon in the harness process (its own, apart from every server), ${connections} connections, no pipelining; ${rounds} paired rounds of ${roundSeconds} s per side: each round runs ours and bare Node back to back, which goes first alternating each round (after a warm-up of each: 1 s, 0.1 s in quick mode). The Ratio column is the median of the per-round ratios ours / bare with their lowest and highest; Ours and bare Node are the medians of their rounds. Peers run after each pair.`,
      'Ours pages through the store with a different lastEventId on every request (every page full, 100 events); the events are stored through the bus before the run (in process, not over HTTP), spread over race days and all eight durable channels.',
      'Bare Node gets the same requests (the same walk of paths with their query strings, the same authorization header) and does the least a page read must: parses the query, checks the header (401 otherwise) and sends the exact bytes of one of our pages, pre-serialised. Mockoon CLI and json-server serve the same page as a canned response (Mockoon: templating off; json-server: re-serialised with its default 2-space indentation).',
      'Below each throughput row, the CPU time (user + system) each server process used per 1,000 requests over each turn (INFO, medians; the ratio is the median of per-round ratios).',
      'On the filtered-events store, a query with trackId + raceNr + startNr over the whole date range that matches nothing (204) runs in paired rounds against a GET /customerapi/events page read on the same simulator: it should cost at most twice a page read.',
    ],
    comparisons,
    notes,
    profiles,
    durationMs: Date.now() - started,
  };
}
