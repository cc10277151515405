import { withSides, type ClientSide } from '../clients/client-side';
import type { ClientKind } from '../clients/sets';
import type { BenchConfig } from '../config';
import { httpRequest } from '../harness/http';
import { load } from '../harness/load';
import { AUTH } from '../harness/payloads';
import { MEASURED, ourSim, withServer, type Server, type SimKind } from '../harness/processes';
import { count, med, pairedRounds, pairedRow, rounds } from '../harness/rows';
import { seedFile, startStore } from '../harness/store';
import type { BenchContext, Scenario } from '../types';
import { PAGING } from './read-paths';

const SIDES = ['on', 'off'] as const;
type Side = (typeof SIDES)[number];

type Bound = { readonly bound: number; readonly text: string };

export interface AbSpec {
  /** What is switched: `control plane`, `LOG_REQUESTS`; the baseline is `<what> off`. */
  readonly what: string;
  readonly kind: SimKind;
  /** Each side's environment on top of the measured settings. */
  readonly env: Readonly<Record<Side, Record<string, string>>>;
  /** Deliveries to clients of one kind, at most `window` in flight; or page reads of a store of `events`. */
  readonly work:
    | { readonly label: string; readonly clients: ClientKind; readonly count: (c: BenchConfig) => number }
    | { readonly label?: (events: number) => string; readonly events: (c: BenchConfig) => number };
  /** Targets on on / off of the throughput row (higher is better) and of the CPU-per-unit row (lower is). */
  readonly rate?: Bound;
  readonly cpu?: Bound;
  /** Said on the CPU row (where the logs go, and the like). */
  readonly note?: string;
}

/** The work both sides take, turn by turn: a rate and the units of work it counted. */
interface Load {
  readonly label: string;
  readonly unit: 'msg/s' | 'req/s';
  readonly work: 'messages' | 'requests';
  turn(side: Side, ms: number): Promise<{ rate: number; units: number }>;
  /** What the throughput row says of the size of the work, given each side's median rate. */
  note(on: number, off: number): string;
}

/** Page reads walking a store filled at start (--seed FILE: the control plane may be off), the same page on both sides. */
async function reads(ctx: BenchContext, servers: Record<Side, Server>, events: number, label?: string) {
  const scenario = PAGING(events);
  const walks = { on: scenario.paths(events), off: scenario.paths(events) };
  const pages = await Promise.all(
    SIDES.map(async (side) => {
      const answer = await httpRequest({ port: servers[side].port, path: walks[side].sample, headers: AUTH });
      if (answer.status !== 200) throw new Error(`${walks[side].sample}: HTTP ${answer.status} (${side})`);
      // The same page on both sides, but for the time each event was stored.
      return answer.body.toString().replace(/"created_at":"[^"]*"/g, '');
    }),
  );
  if (pages[0] !== pages[1]) throw new Error('the two sides answered a page differently');
  return {
    ...{ label: label ?? scenario.label, unit: 'req/s', work: 'requests' },
    async turn(side, ms) {
      const { port } = servers[side];
      const connections = ctx.config.controlPlane.readConnections;
      const r = await load({ port, path: walks[side].next, headers: AUTH, connections, seconds: ms / 1000 });
      if (r.bad > 0) throw new Error(`${scenario.label}: ${r.bad} failed requests (${side})`);
      return { rate: r.requestsPerSecond, units: r.requests };
    },
    note: () => `${Buffer.byteLength(pages[0] as string)} B/response`,
  } satisfies Load;
}

/**
 * Two simulators identical but for one switch (the control plane, request logging), each in its
 * own process, driven alike in paired rounds: the throughput of each side, and the CPU time its
 * process used per 1,000 units of work, on against off.
 */
export const abPair = (spec: AbSpec): Scenario => ({
  method: ({ config: { controlPlane: c, pairedRounds: p } }) => [
    `Two simulators of the same kind as users run them (the built \`racedata-sim\` command), each in its own process, identical but for ${spec.what} (on in Ours, off in the baseline); a store both read is filled at start (--seed FILE, the same events on both sides).`,
    `Both are driven alike in ${p.rounds} paired rounds of ${p.roundMs} ms per side; which side goes first alternates each round, after a warm-up of each. Each round gives a ratio on / off; the Ratio column is the median of those ratios with their lowest and highest, Ours and the baseline the medians of their rounds.`,
    `Deliveries: messages per second that reached every client (held by client processes of their own), with at most ${c.window} posted but not yet delivered to every client. Page reads: autocannon in the harness, ${c.readConnections} connections, GET /customerapi/events?lastEventId=..&limit=100, every page full, the same sequence of pages on both sides.`,
    'Below each throughput row, the CPU time (user + system, from /proc) the simulator process used per 1,000 units of work over each turn, on against off: it charges the switch with its cost directly, and moves less than the rates when the harness or other load on the machine limits them.',
  ],
  async run(ctx) {
    const { rounds: n, roundMs } = ctx.config.pairedRounds;
    const { work } = spec;
    const events = 'events' in work ? work.events(ctx.config) : 0;
    const start = (side: Side) => () => {
      const options = { env: { ...MEASURED, ...spec.env[side] } };
      const tag = `${spec.kind} ${spec.what} ${side}`;
      if (!events) return ourSim(ctx, spec.kind, options, tag);
      return startStore(ctx, events, { ...options, args: ['--seed', seedFile(ctx.rawDir, events)] }, tag);
    };
    /** Both sides' turns, warmed up, in paired rounds: the throughput row and the CPU row. */
    const measure = async (load: Load, pids: Record<Side, number>) => {
      ctx.log(`  ${load.label}, ${spec.what} on / off: ${n} paired rounds of ${roundMs} ms per side`);
      for (const side of SIDES) await load.turn(side, ctx.config.quick ? 100 : 1000);
      const turns = await pairedRounds(n, pids, (side) => load.turn(side, roundMs));
      const rate = (side: Side) => turns[side].map((t) => t.rate);
      const cpu = (side: Side) => turns[side].map((t) => t.cpuMsPerUnit * 1000);
      const ratioLabel = 'on / off, median of paired rounds (min–max)';
      const common = { bareName: `${spec.what} off`, ratioLabel };
      const note = load.note(med(rate('on')) ?? 0, med(rate('off')) ?? 0);
      const rows = [
        pairedRow({
          ...{ ...common, scenario: load.label, unit: load.unit, ours: rate('on'), bare: rate('off') },
          ...{ better: 'higher', bound: spec.rate?.bound, target: spec.rate?.text },
          note: `rounds on/off ${load.unit}: ${rounds(rate('on'), rate('off'))}; ${note}`,
        }),
        pairedRow({
          ...{ ...common, scenario: `${load.label}: simulator CPU per 1,000 ${load.work}`, unit: 'ms' },
          ...{ ours: cpu('on'), bare: cpu('off'), better: 'lower' },
          ...{ bound: spec.cpu?.bound, target: spec.cpu?.text },
          note: `user + system time of the simulator process over each turn; rounds on/off ms: ${rounds(cpu('on'), cpu('off'), 1)}${spec.note ? `; ${spec.note}` : ''}`,
        }),
      ];
      return { rows };
    };
    if ('events' in work) {
      return withServer(start('on')(), (on) =>
        withServer(start('off')(), async (off) => {
          const load = await reads(ctx, { on, off }, events, work.label?.(events));
          return measure(load, { on: on.pid, off: off.pid });
        }),
      );
    }
    const clients = work.count(ctx.config);
    const sides = { servers: [start('on'), start('off')], clients: [work.clients, work.clients] } as const;
    const warm = (side: ClientSide) => side.ready();
    return withSides(ctx, { ...sides, count: clients }, warm, ({ ours, bare }, pids) => {
      const by = { on: ours, off: bare };
      const perClient = (rate: number) => count(Math.round(rate * clients));
      const deliveries: Load = {
        ...{ label: `${work.label} (${clients} clients)`, unit: 'msg/s', work: 'messages' },
        async turn(side, ms) {
          const r = await by[side].closedLoop(ms, ctx.config.controlPlane.window);
          return { rate: r.messagesPerSecond, units: r.messages };
        },
        note: (on, off) =>
          `each message reaches all ${clients} clients: ${perClient(on)} / ${perClient(off)} deliveries/s (on / off, medians)`,
      };
      return measure(deliveries, { on: pids.ours, off: pids.bare });
    });
  },
});
