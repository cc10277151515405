import { shouldProfile, type BenchContext } from '../context';
import { load } from '../lib/load';
import { profileSim, readDrive } from '../lib/profiled';
import { chargedTo } from '../lib/proc-stats';
import { NO_MATCH, SELECTIVE, type ReadScenario } from '../lib/read-paths';
import { againstPageRow, flatnessRow, pairRows } from '../lib/read-rows';
import { openLoggedStore, openReadStore, type ReadStore, type Side } from '../lib/read-store';
import { median } from '../lib/stats';
import { startBaseline } from '../baselines/start-baseline';
import { peerDataFiles, startPeer, type RunningPeer } from '../peer-tools/peer-run';
import { PEER_NAMES, PEER_PAGE_PATH, type PeerName } from '../peer-tools/peer-servers';
import type { Comparison, Figure, MeasureBody, ProfileSummary } from '../types';

/** The bound on a page read against bare Node: looser at 1,000,000 stored events. */
const pageBound = (events: number) => (events >= 1_000_000 ? 0.6 : 0.7);
const percent = (bound: number) => `${Math.round(bound * 100)}%`;

/** The peers serve the page of the reference store: the one the largest is held flat against. */
async function startPeers(ctx: BenchContext, page: Buffer) {
  const running: RunningPeer[] = [];
  const sides: Side[] = [];
  const notes: string[] = [];
  if (!ctx.peers) return { running, sides, notes };
  const files = peerDataFiles(ctx.rawDir, page.toString('utf8'));
  const tools = ctx.peers;
  const started = await Promise.allSettled(PEER_NAMES.map((name) => startPeer(tools, name, files[name])));
  started.forEach((result, k) => {
    const name = PEER_NAMES[k] as PeerName;
    if (result.status === 'fulfilled') {
      running.push(result.value);
      sides.push({ name, port: result.value.port, path: PEER_PAGE_PATH[name], results: [], cpu: [] });
    } else {
      notes.push(`${name} could not be started: ${(result.reason as Error).message}`);
    }
  });
  return { running, sides, notes };
}

function peerFigures(ctx: BenchContext, sides: readonly Side[]): Figure[] {
  return PEER_NAMES.map((name) => {
    const side = sides.find((s) => s.name === name);
    if (side && side.results.length > 0) {
      const bytes = Math.round(side.results[0]?.bytesPerResponse ?? 0);
      return {
        name,
        value: median(side.results.map((r) => r.requestsPerSecond)),
        note: `${bytes} B/response`,
      };
    }
    return { name, value: null, note: ctx.peers ? 'failed to start' : 'not installed' };
  });
}

/** Reruns a missed read on the in-process simulator under V8's profiler (the CLI has no hook for it). */
async function profileRead(ctx: BenchContext, scenario: ReadScenario): Promise<ProfileSummary> {
  const drive = readDrive(scenario, ctx.config.read.connections, ctx.config.profileMs / 1000);
  return (await profileSim(ctx, scenario.label, 'json', { maxOldSpaceMb: 8192 }, drive)).summary;
}

export async function readThroughput(ctx: BenchContext): Promise<MeasureBody> {
  const { connections, roundSeconds, rounds, sizes } = ctx.config.read;
  const comparisons: Comparison[] = [];
  const profiles: ProfileSummary[] = [];
  const notes: string[] = [];
  const bare = await startBaseline(ctx, 'bare-static');
  const stores: ReadStore[] = [];
  let peers: Awaited<ReturnType<typeof startPeers>> | undefined;
  let logged: Awaited<ReturnType<typeof openLoggedStore>> | undefined;
  try {
    for (const events of sizes) {
      ctx.log(`  store of ${events} events (racedata-sim json, seeded over POST /_sim/events)`);
      stores.push(await openReadStore(ctx, events, bare));
    }
    const reference = stores[Math.max(0, stores.length - 2)] as ReadStore;
    ctx.log(`  the reference store again, with LOG_REQUESTS=true`);
    logged = await openLoggedStore(ctx, reference.events);
    peers = await startPeers(ctx, reference.page.sample);
    const turn = async (side: Side, seconds: number, keep = true) => {
      await side.before?.();
      const run = () => load({ ...side, connections, seconds });
      if (side.pid === undefined) {
        const result = await run();
        if (keep) side.results.push(result);
        return;
      }
      const { result, cpuMs } = await chargedTo(side.pid, run);
      if (keep) {
        side.results.push(result);
        side.cpu.push(result.requests > 0 ? (cpuMs * 1000) / result.requests : Number.NaN);
      }
    };
    // Each store's sides: the no-match query and the bare page sit either side of our page read,
    // so each ratio compares turns back to back.
    const sequence = stores.flatMap((s) => [
      s.noMatch,
      s.page.ours,
      s.page.bare,
      s.filtered.ours,
      s.filtered.bare,
      s.selective,
      ...(s === reference && logged ? [logged.side] : []),
    ]);
    ctx.log(
      `  ${rounds} rounds of ${sequence.length} turns of ${roundSeconds} s (${connections} connections)${peers.sides.length > 0 ? ', then the peers' : ''}`,
    );
    for (const side of [...sequence, ...peers.sides]) await turn(side, ctx.config.quick ? 0.1 : 0.5, false);
    // The whole sequence runs reversed every other round, so every pair's order alternates and
    // drift or other load on the machine falls on both sides alike.
    for (let r = 0; r < rounds; r++) {
      for (const side of r % 2 === 0 ? sequence : [...sequence].reverse()) await turn(side, roundSeconds);
      for (const side of peers.sides) await turn(side, roundSeconds);
    }
    for (const store of stores) {
      const withPeers = store === reference && ctx.peers !== undefined;
      const bound = pageBound(store.events);
      comparisons.push(
        ...pairRows(
          store.page,
          {
            bound,
            text: `>= ${percent(bound)} of bare${withPeers ? ' and ahead of every peer' : ''}`,
          },
          withPeers ? peerFigures(ctx, peers.sides) : [],
          withPeers ? peers.notes : [],
        ),
        ...pairRows(store.filtered, { bound: 0.5, text: '>= 50% of bare' }),
        againstPageRow(store, store.noMatch, 'no match', NO_MATCH(store.events).label),
        againstPageRow(store, store.selective, 'selective', SELECTIVE(store.events).label),
      );
    }
    if (logged) {
      const label = `GET /customerapi/events page reads with LOG_REQUESTS=true (a JSON log line a request) over ${reference.events.toLocaleString('en-US')} stored events`;
      comparisons.push(againstPageRow(reference, logged.side, 'LOG_REQUESTS on', label));
    }
    if (stores.length >= 2) comparisons.push(flatnessRow(stores[stores.length - 1] as ReadStore, reference));
    for (const store of stores) {
      const { seeded } = store;
      notes.push(
        `store of ${store.events.toLocaleString('en-US')}: seeded over POST /_sim/events in ${(seeded.wallMs / 1000).toFixed(1)} s (server CPU ${(seeded.serverCpuMs / 1000).toFixed(1)} s)`,
      );
    }
  } finally {
    await Promise.all([
      ...(peers?.running ?? []).map((p) => p.stop()),
      ...stores.map((s) => s.sim.stop()),
      logged?.sim.stop(),
      bare.close(),
    ]);
  }
  if (!ctx.peers) notes.push('peers skipped: not installed (quick mode does not install them)');
  if (ctx.profileMode === 'never') notes.push('quick mode: no profile is taken on a miss');
  // At most one profile per kind of read: the largest store where it missed.
  for (const kind of ['page', 'filtered', 'noMatch'] as const) {
    const missed = [...stores].reverse().find((store) => {
      const label = kind === 'noMatch' ? NO_MATCH(store.events).label : store[kind].scenario.label;
      const row = comparisons.find((c) => c.scenario === label);
      return row !== undefined && shouldProfile(ctx, row.verdict);
    });
    if (!missed) continue;
    const scenario = kind === 'noMatch' ? NO_MATCH(missed.events) : missed[kind].scenario;
    profiles.push(await profileRead(ctx, scenario));
  }
  const sizeList = sizes.map((n) => n.toLocaleString('en-US')).join(', ');
  return {
    method: [
      `Ours is the JSON simulator as users run it: \`node packages/cli/bin/racedata-sim.js json --port 0 --host 127.0.0.1 --no-replay\` (the port read from its start banner), one process per store size (${sizeList} events), with EVENT_STORE_MAX set to the size and EVENT_STORE_MAX_BYTES raised so the count alone decides what is kept. Each is filled once, over HTTP, with POST /_sim/events (NDJSON, ${'25,000'} events a body; start-list entries of about 340 bytes of JSON spread over race days and all eight durable channels), before any reads; the stores stay up side by side for the whole measure.`,
      `autocannon in the harness process (apart from every server), ${connections} connections, no pipelining; ${rounds} rounds of ${roundSeconds} s turns (after a warm-up of each side: 0.5 s, 0.1 s in quick mode). A round runs, for each store, the no-match query, our page read, bare Node's page read, our filtered read, bare Node's filtered read and the selective query back to back (and, for the reference store, the page read of a second simulator of the same store that logs every request, LOG_REQUESTS=true at LOG_LEVEL=info, its log lines sent to /dev/null); every other round runs the whole sequence reversed, so each pair's order alternates. The Ratio column is the median of the per-round ratios with their lowest and highest; Ours and the baselines are the medians of their rounds. Peers run after each round.`,
      'Page reads walk the store with a different lastEventId on every request (every page full, 100 events); filtered reads (channel + a date range) walk the range alike. Bare Node gets the same requests (the same walk of paths with their query strings, the same authorization header) and does the least a read must: parses the query, checks the header (401 otherwise) and sends the exact bytes of one of our pages for that read, pre-serialised (one bare process; its page is set before each of its turns, outside the timing). Mockoon CLI and json-server serve the page of the reference store as a canned response (Mockoon: templating off; json-server: re-serialised with its default 2-space indentation).',
      `Targets: a page read at >= 70% of bare Node (>= 60% at 1,000,000 events); a filtered read at >= 50%; a trackId + raceNr + startNr query over the whole date range that matches nothing (204) at no more than twice the cost of a page read of the same store (its req/s over the page read's, per round); a trackId + raceNr query over the whole date range that one event in 20 matches, against the page read likewise (INFO); flatness: the page read's ours/bare at the largest store within 15% of the one at the store before it (per round, so drift cancels).`,
      'Below each throughput row, the CPU time (user + system, all threads) each server process used per 1,000 requests over each turn, read from /proc/<pid>/stat (10 ms resolution; INFO, medians; the ratio is the median of per-round ratios).',
      'On a miss, the profile reruns that read on the in-process simulator (the same packages, built into a forked child with V8 profiler access, filled through the bus) for the largest store that missed.',
    ],
    comparisons,
    notes,
    profiles,
  };
}
