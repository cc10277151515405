import { httpRequest } from '../harness/http';
import { load } from '../harness/load';
import { AUTH } from '../harness/payloads';
import { PEER_NAMES, PEER_PAGE_PATH, peerDataFiles, startPeer } from '../harness/peers';
import { chargedTo, type Server, startBare } from '../harness/processes';
import { compare, count, med, pairedRow, perRound, round, rounds } from '../harness/rows';
import { seedStore, startStore } from '../harness/store';
import type { BenchContext, Comparison, Figure, Scenario } from '../types';
import type { ReadScenario } from './read-paths';

/** A read of each store: against bare Node sending the same bytes, or against our page read of the same store. */
export interface ReadKind {
  readonly read: (events: number) => ReadScenario;
  /** `bare`, or what the read is called against the page read (`no match`, `selective`). */
  readonly against: 'bare' | string;
  /** Ratio bound and its text (none: INFO). */
  readonly target?: (events: number) => { bound: number; text: string };
  /** The page read: the peers race it at the reference store, the other reads are held against it. */
  readonly page?: true;
  /** Its answers' status: 204 for a query that matches nothing (default 200). */
  readonly status?: 204;
}

/**
 * One server's part in the rounds: per turn, req/s, p50 and its CPU per 1,000 requests; `before`
 * runs before each of its turns, outside the timing (bare Node: the page it must send).
 */
const side = (
  name: string,
  { port, pid }: { port: number; pid: number },
  path: string | (() => string),
  before?: () => Promise<unknown>,
) => ({
  ...{ name, port, pid, path, before },
  ...{ rate: [] as number[], p50: [] as number[], cpu: [] as number[], bytes: 0, bad: 0 },
});
type Side = ReturnType<typeof side>;

/** One store size: its own CLI process, seeded once over HTTP, and each read's sides. */
async function openStore(ctx: BenchContext, events: number, bare: Server, kinds: readonly ReadKind[]) {
  const sim = await startStore(ctx, events);
  try {
    const seeded = await seedStore(sim, events);
    ctx.log(`    seeded ${events} events over HTTP in ${(seeded.wallMs / 1000).toFixed(1)} s`);
    const reads = [];
    for (const kind of kinds) {
      const scenario = kind.read(events);
      const walk = () => scenario.paths(seeded.lastEventId);
      const sample = await httpRequest({ port: sim.port, path: walk().sample, headers: AUTH });
      if (sample.status !== (kind.status ?? 200)) throw new Error(`${walk().sample}: HTTP ${sample.status}`);
      const ours = side(`${scenario.label}, ours`, sim, walk().next);
      if (kind.against !== 'bare') {
        reads.push({ kind, scenario, ours, sample: sample.body });
        continue;
      }
      // Bare Node serves every read of every store: its page is set before each of its turns.
      const headers = { 'x-authorization': AUTH.authorization };
      const setPage = () =>
        httpRequest({ port: bare.port, method: 'POST', path: '/_page', headers, body: sample.body });
      await setPage();
      const check = await httpRequest({ port: bare.port, path: walk().sample, headers: AUTH });
      if (check.body.length !== sample.body.length)
        throw new Error(`bare Node answered ${walk().sample} otherwise`);
      ctx.log(`    ${scenario.label}: ${sample.body.length} B a page`);
      const bareSide = side(`${scenario.label}, bare`, bare, walk().next, setPage);
      reads.push({ kind, scenario, ours, bare: bareSide, sample: sample.body });
    }
    return { events, sim, seeded, reads };
  } catch (err) {
    await sim.stop();
    throw err;
  }
}

type Store = Awaited<ReturnType<typeof openStore>>;
type Read = Store['reads'][number];

const failures = (sides: readonly Side[]) =>
  sides.filter((s) => s.bad > 0).map((s) => `${s.name}: ${s.bad} failed requests`);

function readRows(
  store: Store,
  { kind, scenario, ours, bare }: Read,
  peers: readonly Figure[],
): Comparison[] {
  const target = kind.target?.(store.events);
  const rate = { scenario: scenario.label, unit: 'req/s', ours: ours.rate, better: 'higher' } as const;
  const bound = target && { bound: target.bound, target: target.text };
  if (!bare) {
    const page = store.reads.find((r) => r.kind.page)?.ours as Side;
    const ms = (values: readonly number[]) => `${round(med(values) ?? NaN, 2)} ms`;
    return [
      pairedRow({
        ...{ ...rate, ...bound, bare: page.rate, bareName: 'GET /events page read, same store' },
        ratioLabel: `${kind.against} / page read, median of paired rounds (min–max)`,
        note: [
          `${kind.status === 204 ? '204, no body' : `${ours.bytes} B/response`}; p50 ${ms(ours.p50)} against ${ms(page.p50)}`,
          `server CPU per 1,000 requests ${ms(ours.cpu)} against ${ms(page.cpu)}`,
          `rounds ${kind.against}/page req/s: ${rounds(ours.rate, page.rate)}`,
          ...failures([ours]),
        ].join('; '),
      }),
    ];
  }
  const withPeers = peers.length > 0 && kind.page;
  return [
    pairedRow({
      ...{ ...rate, ...bound, bare: bare.rate },
      ...(withPeers && { peers, beatPeers: true, target: `${target?.text} and ahead of every peer` }),
      note: [
        `${ours.bytes} B/response with headers (bare ${bare.bytes} B)`,
        `rounds ours/bare req/s: ${rounds(ours.rate, bare.rate)}`,
        ...failures([ours, bare]),
      ].join('; '),
    }),
    pairedRow({
      ...{ scenario: `${scenario.label}: server CPU per 1,000 requests`, unit: 'ms', ours: ours.cpu },
      ...{ bare: bare.cpu, better: 'lower' },
      note: 'user + system time of each server process over each turn, from /proc (medians); less sensitive than the rate to the load generator and to other load on the machine',
    }),
  ];
}

/**
 * Flatness: the page read's ours/bare at the largest store against the same at the one before
 * it, per round (both ran in the same rounds), so the store size alone moves the figure.
 */
function flatnessRow(large: Read, small: Read, events: readonly number[]): Comparison {
  const ratio = (r: Read) => r.ours.rate.map((x, k) => x / ((r.bare as Side).rate[k] as number));
  const [l, s] = events.map(count);
  return compare({
    scenario: `GET /customerapi/events page reads, flatness: ${l} stored events against ${s}`,
    ...{ unit: 'req/s', ours: med(large.ours.rate), bare: med(small.ours.rate) },
    ...{ bareName: 'ours, the smaller store', better: 'higher' },
    ratios: perRound(ratio(large), ratio(small)),
    ...{ bound: 0.85, target: `ours/bare at ${l} within 15% of the figure at ${s} (>= 0.85x)` },
    ratioLabel: '(ours / bare, larger store) / (ours / bare, smaller store), median of rounds (min–max)',
    note: `Ours is the larger store's median req/s, the baseline the smaller store's; the ratio divides each round's ours/bare at ${l} by the same round's at ${s}, so drift of the machine cancels`,
  });
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
      const [stores, notes, rows]: [Store[], string[], Comparison[]] = [[], [], []];
      const peers: Array<Awaited<ReturnType<typeof startPeer>>> = [];
      const turn = async (s: Side, seconds: number, keep = true) => {
        await s.before?.();
        const charged = () => load({ ...s, headers: AUTH, connections, seconds });
        const { result, cpuMs } = await chargedTo(s.pid, charged);
        if (!keep) return;
        [s.bytes, s.bad] = [Math.round(result.bytesPerResponse), s.bad + result.bad];
        s.rate.push(result.requestsPerSecond);
        s.p50.push(result.p50Ms);
        s.cpu.push(result.requests > 0 ? (cpuMs * 1000) / result.requests : Number.NaN);
      };
      try {
        for (const events of sizes) {
          ctx.log(`  store of ${events} events (racedata-sim json, seeded over POST /_sim/events)`);
          stores.push(await openStore(ctx, events, bare, kinds));
        }
        const reference = stores[Math.max(0, stores.length - 2)] as Store;
        const page = (s: Store) => s.reads.find((r) => r.kind.page) as Read;
        if (ctx.peers) {
          const files = peerDataFiles(ctx.rawDir, page(reference).sample.toString('utf8'));
          for (const name of PEER_NAMES) {
            const failed = (err: Error) => notes.push(`${name} could not be started: ${err.message}`);
            await startPeer(ctx.peers, name, files[name]).then((p) => peers.push(p), failed);
          }
        } else notes.push('peers skipped: not installed (quick mode does not install them)');
        const peerSides = peers.map((p) => side(p.name, p, PEER_PAGE_PATH[p.name]));
        const sequence = stores.flatMap((s) =>
          s.reads.flatMap((r) => (r.bare ? [r.ours, r.bare] : [r.ours])),
        );
        ctx.log(
          `  ${n} rounds of ${sequence.length} turns of ${roundSeconds} s (${connections} connections)`,
        );
        for (const s of [...sequence, ...peerSides]) await turn(s, ctx.config.quick ? 0.1 : 0.5, false);
        for (let r = 0; r < n; r++) {
          for (const s of r % 2 === 0 ? sequence : [...sequence].reverse()) await turn(s, roundSeconds);
          for (const s of peerSides) await turn(s, roundSeconds);
        }
        const peerFigures = PEER_NAMES.map((name): Figure => {
          const s = peerSides.find((p) => p.name === name);
          if (s) return { name, value: med(s.rate), note: `${s.bytes} B/response` };
          return { name, value: null, note: ctx.peers ? 'failed to start' : 'not installed' };
        });
        for (const store of stores)
          for (const read of store.reads)
            rows.push(...readRows(store, read, store === reference && ctx.peers ? peerFigures : []));
        const largest = stores.at(-1) as Store;
        if (stores.length >= 2)
          rows.push(flatnessRow(page(largest), page(reference), [largest.events, reference.events]));
        const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
        for (const { events, seeded: s } of stores)
          notes.push(
            `store of ${count(events)}: seeded over POST /_sim/events in ${seconds(s.wallMs)} (server CPU ${seconds(s.serverCpuMs)})`,
          );
      } finally {
        await Promise.all([...peers.map((p) => p.stop()), ...stores.map((s) => s.sim.stop()), bare.stop()]);
      }
      return { rows, notes };
    },
  };
}
