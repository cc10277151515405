import { httpRequest } from '../harness/http';
import { load, type LoadResult } from '../harness/load';
import { AUTH } from '../harness/payloads';
import { PEER_NAMES, PEER_PAGE_PATH, peerDataFiles, startPeer } from '../harness/peers';
import { startBare, type Server } from '../harness/processes';
import { profileRun, shouldProfile } from '../harness/profile';
import { compare, count, med, rounds } from '../harness/rows';
import { chargedTo } from '../harness/proc';
import { perRound, round } from '../harness/stats';
import { seedStore, startStore, type Seeded } from '../harness/store';
import type { BenchContext, Comparison, Figure, Scenario } from '../types';
import type { ReadScenario } from './read-paths';

/** A read of each store: against bare Node sending the same bytes, or against our page read of the same store. */
export interface ReadKind {
  readonly read: (events: number) => ReadScenario;
  readonly against: 'bare' | 'page';
  /** Ratio bound and its text (none: INFO); page reads of the reference store also race the peers. */
  readonly target?: (events: number) => { bound: number; text: string } | undefined;
  readonly peers?: boolean;
  /** What the ratio is called against a page read (`no match`, `selective`). */
  readonly name?: string;
  /** Its answers' status: 204 for a query that matches nothing (default 200). */
  readonly status?: 204;
}

/** One server's part in the rounds: its load results and CPU per 1,000 requests per turn. */
interface Side {
  readonly name: string;
  readonly port: number;
  readonly pid: number;
  readonly path: string | (() => string);
  /** Runs before each of its turns, outside the timing (bare Node: the page it must send). */
  readonly before?: () => Promise<unknown>;
  readonly results: LoadResult[];
  readonly cpu: number[];
}

const rates = (side: Side) => side.results.map((r) => r.requestsPerSecond);
const bytes = (side: Side) => Math.round(side.results[0]?.bytesPerResponse ?? 0);
const failures = (sides: readonly Side[]) =>
  sides.flatMap((s) => {
    const bad = s.results.reduce((n, r) => n + r.bad, 0);
    return bad > 0 ? [`${s.name}: ${bad} failed requests`] : [];
  });

/** One store size: its own CLI process, seeded once over HTTP, and each read's sides. */
async function openStore(ctx: BenchContext, events: number, bare: Server, kinds: readonly ReadKind[]) {
  const sim = await startStore(ctx.simRoot, events);
  try {
    const seeded = await seedStore(sim, events);
    ctx.log(`    seeded ${events} events over HTTP in ${(seeded.wallMs / 1000).toFixed(1)} s`);
    const reads = [];
    for (const kind of kinds) {
      const scenario = kind.read(events);
      const paths = scenario.paths(seeded.lastEventId);
      const sample = await httpRequest({ port: sim.port, path: paths.sample, headers: AUTH });
      if (sample.status !== (kind.status ?? 200)) throw new Error(`${paths.sample}: HTTP ${sample.status}`);
      const side = (name: string, server: Server, extra: Partial<Side> = {}): Side => {
        const path = scenario.paths(seeded.lastEventId).next;
        return { name, port: server.port, pid: server.pid, path, results: [], cpu: [], ...extra };
      };
      const ours = side(`${scenario.label}, ours`, sim);
      if (kind.against === 'page') {
        reads.push({ kind, scenario, ours, sample: sample.body });
        continue;
      }
      // Bare Node serves every read of every store: its page is set before each of its turns.
      const setPage = () =>
        httpRequest({
          port: bare.port,
          method: 'POST',
          path: '/_page',
          headers: { 'x-authorization': AUTH.authorization },
          body: sample.body,
        });
      await setPage();
      const check = await httpRequest({ port: bare.port, path: paths.sample, headers: AUTH });
      if (check.status !== 200 || check.body.length !== sample.body.length)
        throw new Error(`bare Node answered ${paths.sample} with HTTP ${check.status}`);
      ctx.log(`    ${scenario.label}: ${sample.body.length} B a page`);
      reads.push({
        kind,
        scenario,
        ours,
        bare: side(`${scenario.label}, bare`, bare, { before: setPage }),
        sample: sample.body,
      });
    }
    return { events, sim, seeded, reads };
  } catch (err) {
    await sim.stop();
    throw err;
  }
}

type Store = Awaited<ReturnType<typeof openStore>>;
type Read = Store['reads'][number];

function readRows(
  store: Store,
  read: Read,
  peers: readonly Figure[],
  peerNotes: readonly string[],
): Comparison[] {
  const { kind, scenario, ours, bare } = read;
  const target = kind.target?.(store.events);
  if (!bare) {
    const page = store.reads.find((r) => r.kind.against === 'bare' && r.kind.peers)?.ours as Side;
    const p50 = (s: Side) => med(s.results.map((x) => x.p50Ms));
    const ms = (v: number | null) => (v === null ? '—' : `${round(v, 2)} ms`);
    return [
      compare({
        ...{ scenario: scenario.label, unit: 'req/s', ours: med(rates(ours)), bare: med(rates(page)) },
        ...{
          bareName: 'GET /events page read, same store',
          better: 'higher',
          ratios: perRound(rates(ours), rates(page)),
        },
        ...(target && { bound: target.bound, target: target.text }),
        ratioLabel: `${kind.name} / page read, median of paired rounds (min–max)`,
        note: [
          `${kind.status === 204 ? '204, no body' : `${bytes(ours)} B/response`}; p50 ${ms(p50(ours))} against ${ms(p50(page))}`,
          `server CPU per 1,000 requests ${ms(med(ours.cpu))} against ${ms(med(page.cpu))}`,
          `rounds ${kind.name}/page req/s: ${rounds(rates(ours), rates(page))}`,
          ...failures([ours]),
        ].join('; '),
      }),
    ];
  }
  const withPeers = peers.length > 0 && kind.peers;
  return [
    compare({
      ...{
        scenario: scenario.label,
        unit: 'req/s',
        ours: med(rates(ours)),
        bare: med(rates(bare)),
        better: 'higher',
      },
      ...{ peers: withPeers ? peers : [], beatPeers: withPeers, ratios: perRound(rates(ours), rates(bare)) },
      ...(target && {
        bound: target.bound,
        target: `${target.text}${withPeers ? ' and ahead of every peer' : ''}`,
      }),
      note: [
        `${bytes(ours)} B/response with headers (bare ${bytes(bare)} B)`,
        `rounds ours/bare req/s: ${rounds(rates(ours), rates(bare))}`,
        ...failures([ours, bare]),
        ...(withPeers ? peerNotes : []),
      ].join('; '),
    }),
    compare({
      ...{ scenario: `${scenario.label}: server CPU per 1,000 requests`, unit: 'ms', better: 'lower' },
      ...{ ours: med(ours.cpu), bare: med(bare.cpu), ratios: perRound(ours.cpu, bare.cpu) },
      note: 'user + system time of each server process over each turn, from /proc (medians); less sensitive than the rate to the load generator and to other load on the machine',
    }),
  ];
}

/**
 * Flatness: the page read's ours/bare at the largest store against the same at the one before
 * it, per round (both ran in the same rounds), so the store size alone moves the figure.
 */
function flatnessRow(large: Read, small: Read, events: [number, number]): Comparison {
  const ratio = (r: Read) => perRound(rates(r.ours), rates(r.bare as Side));
  const [l, s] = events.map(count);
  return compare({
    scenario: `GET /customerapi/events page reads, flatness: ${l} stored events against ${s}`,
    ...{
      unit: 'req/s',
      ours: med(rates(large.ours)),
      bare: med(rates(small.ours)),
      bareName: 'ours, the smaller store',
    },
    ...{
      better: 'higher',
      bound: 0.85,
      target: `ours/bare at ${l} within 15% of the figure at ${s} (>= 0.85x)`,
    },
    ratios: perRound(ratio(large), ratio(small)),
    ratioLabel: '(ours / bare, larger store) / (ours / bare, smaller store), median of rounds (min–max)',
    note: `Ours is the larger store's median req/s, the baseline the smaller store's; the ratio divides each round's ours/bare at ${l} by the same round's at ${s}, so drift of the machine cancels`,
  });
}

/** The peers serve the page of the reference store as a canned response. */
async function startPeers(ctx: BenchContext, page: Buffer) {
  const running: Array<Awaited<ReturnType<typeof startPeer>>> = [];
  const notes: string[] = [];
  if (!ctx.peers) return { running, sides: [] as Side[], notes };
  const files = peerDataFiles(ctx.rawDir, page.toString('utf8'));
  for (const name of PEER_NAMES) {
    const started = await startPeer(ctx.peers, name, files[name]).catch(
      (err: Error) => void notes.push(`${name} could not be started: ${err.message}`),
    );
    if (started) running.push(started);
  }
  const sides = running.map((p): Side => ({
    name: p.name,
    port: p.port,
    pid: p.pid,
    path: PEER_PAGE_PATH[p.name],
    results: [],
    cpu: [],
  }));
  return { running, sides, notes };
}

/**
 * Read throughput: the JSON simulator as users run it, one process per store size, filled over
 * HTTP; every read of every store and bare Node's same reads in one sequence per round (reversed
 * every other round), so each ratio compares turns back to back; the peers after each round.
 */
export function readThroughput(kinds: readonly ReadKind[], method: readonly string[]): Scenario {
  return {
    peers: true,
    method: () => method,
    async run(ctx) {
      const { connections, roundSeconds, rounds: n, sizes } = ctx.config.read;
      const bare = await startBare();
      const stores: Store[] = [];
      let peers: Awaited<ReturnType<typeof startPeers>> | undefined;
      const notes: string[] = [];
      const rows: Comparison[] = [];
      try {
        for (const events of sizes) {
          ctx.log(`  store of ${events} events (racedata-sim json, seeded over POST /_sim/events)`);
          stores.push(await openStore(ctx, events, bare, kinds));
        }
        const reference = stores[Math.max(0, stores.length - 2)] as Store;
        peers = await startPeers(ctx, reference.reads.find((r) => r.kind.peers)?.sample ?? Buffer.from('{}'));
        const sequence = stores.flatMap((s) =>
          s.reads.flatMap((r) => (r.bare ? [r.ours, r.bare] : [r.ours])),
        );
        const turn = async (side: Side, seconds: number, keep = true) => {
          await side.before?.();
          const options = { port: side.port, path: side.path, headers: AUTH, connections, seconds };
          const { result, cpuMs } = await chargedTo(side.pid, () => load(options));
          if (!keep) return;
          side.results.push(result);
          side.cpu.push(result.requests > 0 ? (cpuMs * 1000) / result.requests : Number.NaN);
        };
        ctx.log(
          `  ${n} rounds of ${sequence.length} turns of ${roundSeconds} s (${connections} connections)`,
        );
        for (const side of [...sequence, ...peers.sides])
          await turn(side, ctx.config.quick ? 0.1 : 0.5, false);
        // Every other round reversed, so every pair's order alternates.
        for (let r = 0; r < n; r++) {
          for (const side of r % 2 === 0 ? sequence : [...sequence].reverse()) await turn(side, roundSeconds);
          for (const side of peers.sides) await turn(side, roundSeconds);
        }
        const peerFigures = PEER_NAMES.map((name): Figure => {
          const side = peers?.sides.find((s) => s.name === name);
          if (side?.results.length)
            return { name, value: med(rates(side)), note: `${bytes(side)} B/response` };
          return { name, value: null, note: ctx.peers ? 'failed to start' : 'not installed' };
        });
        for (const store of stores) {
          const withPeers = store === reference && ctx.peers ? peerFigures : [];
          for (const read of store.reads) rows.push(...readRows(store, read, withPeers, peers.notes));
        }
        const flat = (s: Store) => s.reads.find((r) => r.kind.peers) as Read;
        const largest = stores[stores.length - 1] as Store;
        if (stores.length >= 2)
          rows.push(flatnessRow(flat(largest), flat(reference), [largest.events, reference.events]));
        for (const { events, seeded } of stores) notes.push(seededNote(events, seeded));
      } finally {
        await Promise.all([
          ...(peers?.running ?? []).map((p) => p.stop()),
          ...stores.map((s) => s.sim.stop()),
          bare.stop(),
        ]);
      }
      if (!ctx.peers) notes.push('peers skipped: not installed (quick mode does not install them)');
      return { rows, notes, profiles: await profileMisses(ctx, stores, rows) };
    },
  };
}

const seededNote = (events: number, seeded: Seeded) =>
  `store of ${count(events)}: seeded over POST /_sim/events in ${(seeded.wallMs / 1000).toFixed(1)} s (server CPU ${(seeded.serverCpuMs / 1000).toFixed(1)} s)`;

/** At most one profile per kind of read: the largest store where it missed, rerun on a fresh store. */
async function profileMisses(ctx: BenchContext, stores: readonly Store[], rows: readonly Comparison[]) {
  const profiles = [];
  for (const k of stores[0]?.reads.keys() ?? []) {
    const missed = [...stores].reverse().find((store) => {
      const row = rows.find((c) => c.scenario === store.reads[k]?.scenario.label);
      return row !== undefined && shouldProfile(ctx, row.verdict);
    });
    const read = missed?.reads[k];
    if (!missed || !read) continue;
    let path: () => string = () => '/';
    const { summary } = await profileRun(
      ctx,
      read.scenario.label,
      () => startStore(ctx.simRoot, missed.events),
      {
        setup: async (sim) =>
          void (path = read.scenario.paths((await seedStore(sim, missed.events)).lastEventId).next),
        run: async (sim) => {
          const seconds = ctx.config.profileMs / 1000;
          return (
            await load({
              port: sim.port,
              path,
              headers: AUTH,
              connections: ctx.config.read.connections,
              seconds,
            })
          ).requests;
        },
      },
    );
    profiles.push(summary);
  }
  return profiles;
}
