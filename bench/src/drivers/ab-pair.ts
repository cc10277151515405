import { ClientSide, clientProcesses } from '../clients/client-side';
import type { ClientKind } from '../clients/sets';
import type { BenchConfig } from '../config';
import { httpRequest } from '../harness/http';
import { load } from '../harness/load';
import { AUTH } from '../harness/payloads';
import { MEASURED, ourSim, type Server, type SimKind, type Worker } from '../harness/processes';
import { count, med, pairedRounds, pairedRow, rounds } from '../harness/rows';
import { seedFile, startStore } from '../harness/store';
import type { BenchContext, Comparison, Scenario } from '../types';
import { PAGING } from './read-paths';

type Side = 'on' | 'off';
const SIDES = ['on', 'off'] as const;

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
  readonly rate?: { readonly bound: number; readonly text: string };
  readonly cpu?: { readonly bound: number; readonly text: string };
  /** Said on the CPU row (where the logs go, and the like). */
  readonly note?: string;
}

/** The work both sides take, turn by turn. */
interface Load {
  readonly label: string;
  readonly unit: 'msg/s' | 'req/s';
  readonly work: 'messages' | 'requests';
  /** Connects clients, or checks that both sides answer the same page. */
  setup(server: Server, side: Side): Promise<void>;
  turn(side: Side, ms: number): Promise<{ rate: number; units: number }>;
  /** What the throughput row says of the size of the work, given each side's median rate. */
  note(on: number, off: number): string;
  close(): Promise<unknown>;
}

/** Page reads walking a store filled at start (--seed FILE: the control plane may be off). */
function reads(ctx: BenchContext, events: number, label?: (n: number) => string): Load {
  const scenario = PAGING(events);
  const walks = { on: scenario.paths(events), off: scenario.paths(events) };
  const ports = { on: 0, off: 0 };
  const pages: Partial<Record<Side, string>> = {};
  let bytes = 0;
  return {
    ...{ label: label?.(events) ?? scenario.label, unit: 'req/s', work: 'requests' },
    async setup(server, side) {
      ports[side] = server.port;
      const answer = await httpRequest({ port: server.port, path: walks[side].sample, headers: AUTH });
      if (answer.status !== 200) throw new Error(`${walks[side].sample}: HTTP ${answer.status} (${side})`);
      // The same page on both sides, but for the time each event was stored (and where the store ends).
      pages[side] = answer.body.toString().replace(/"created_at":"[^"]*"/g, '');
      bytes = answer.body.length;
      if (side === 'off' && pages.on !== pages.off)
        throw new Error('the two sides answered a page differently');
    },
    async turn(side, ms) {
      const connections = ctx.config.controlPlane.readConnections;
      const r = await load({
        port: ports[side],
        path: walks[side].next,
        headers: AUTH,
        connections,
        seconds: ms / 1000,
      });
      if (r.bad > 0) throw new Error(`${scenario.label}: ${r.bad} failed requests (${side})`);
      return { rate: r.requestsPerSecond, units: r.requests };
    },
    note: () => `${bytes} B/response`,
    close: async () => undefined,
  };
}

/** Deliveries to clients in client processes, at most `window` posted but not yet delivered everywhere. */
function deliveries(ctx: BenchContext, label: string, kind: ClientKind, clients: number): Load {
  const sides: Partial<Record<Side, ClientSide>> = {};
  let workers: Worker[] = [];
  return {
    ...{ label: `${label} (${clients} clients)`, unit: 'msg/s', work: 'messages' },
    async setup(server, side) {
      if (workers.length === 0) workers = await clientProcesses(ctx.config.clientProcesses);
      sides[side] = await ClientSide.open(workers, { kind, port: server.port, count: clients });
      await sides[side].ready();
    },
    async turn(side, ms) {
      const r = await (sides[side] as ClientSide).closedLoop(ms, ctx.config.controlPlane.window);
      return { rate: r.messagesPerSecond, units: r.messages };
    },
    note: (on, off) =>
      `each message reaches all ${clients} clients: ${count(Math.round(on * clients))} / ${count(Math.round(off * clients))} deliveries/s (on / off, medians)`,
    close: () => Promise.all(workers.map((w) => w.close())),
  };
}

/**
 * Two simulators identical but for one switch (the control plane, request logging), each in its
 * own process, driven alike in paired rounds: the throughput of each side, and the CPU time its
 * process used per 1,000 units of work, on against off.
 */
export function abPair(spec: AbSpec): Scenario {
  const work = spec.work;
  const loadOf = (ctx: BenchContext): Load =>
    'clients' in work
      ? deliveries(ctx, work.label, work.clients, work.count(ctx.config))
      : reads(ctx, work.events(ctx.config), work.label);
  const start = (ctx: BenchContext, side: Side) => {
    const env = { ...MEASURED, ...spec.env[side] };
    const tag = `${spec.kind} ${spec.what} ${side}`;
    if ('clients' in work) return ourSim(ctx, spec.kind, { env }, tag);
    const events = work.events(ctx.config);
    return startStore(ctx, events, { env, args: ['--seed', seedFile(ctx.rawDir, events)] }, tag);
  };
  return {
    method: ({ config: { controlPlane: c, pairedRounds: p } }) => [
      `Two simulators of the same kind as users run them (the built \`racedata-sim\` command), each in its own process, identical but for ${spec.what} (on in Ours, off in the baseline); a store both read is filled at start (--seed FILE, the same events on both sides).`,
      `Both are driven alike in ${p.rounds} paired rounds of ${p.roundMs} ms per side; which side goes first alternates each round, after a warm-up of each. Each round gives a ratio on / off; the Ratio column is the median of those ratios with their lowest and highest, Ours and the baseline the medians of their rounds.`,
      `Deliveries: messages per second that reached every client (held by client processes of their own), with at most ${c.window} posted but not yet delivered to every client. Page reads: autocannon in the harness, ${c.readConnections} connections, GET /customerapi/events?lastEventId=..&limit=100, every page full, the same sequence of pages on both sides.`,
      'Below each throughput row, the CPU time (user + system, from /proc) the simulator process used per 1,000 units of work over each turn, on against off: it charges the switch with its cost directly, and moves less than the rates when the harness or other load on the machine limits them.',
    ],
    async run(ctx) {
      const { rounds: n, roundMs } = ctx.config.pairedRounds;
      const load = loadOf(ctx);
      ctx.log(`  ${load.label}, ${spec.what} on / off: ${n} paired rounds of ${roundMs} ms per side`);
      const servers: Server[] = [];
      let rows: Comparison[];
      try {
        servers.push(...(await Promise.all(SIDES.map((side) => start(ctx, side)))));
        const [on, off] = servers as [Server, Server];
        for (const [side, server] of [
          ['on', on],
          ['off', off],
        ] as const)
          await load.setup(server, side);
        for (const side of SIDES) await load.turn(side, ctx.config.quick ? 100 : 1000);
        const turns = await pairedRounds(n, { on: on.pid, off: off.pid }, (side) => load.turn(side, roundMs));
        const rate = (side: Side) => turns[side].map((t) => t.rate);
        const cpu = (side: Side) => turns[side].map((t) => t.cpuMsPerUnit * 1000);
        const common = {
          bareName: `${spec.what} off`,
          ratioLabel: 'on / off, median of paired rounds (min–max)',
        };
        rows = [
          pairedRow({
            ...{ ...common, scenario: load.label, unit: load.unit, ours: rate('on'), bare: rate('off') },
            ...{ better: 'higher' },
            ...(spec.rate && { bound: spec.rate.bound, target: spec.rate.text }),
            note: `rounds on/off ${load.unit}: ${rounds(rate('on'), rate('off'))}; ${load.note(med(rate('on')) ?? 0, med(rate('off')) ?? 0)}`,
          }),
          pairedRow({
            ...{ ...common, scenario: `${load.label}: simulator CPU per 1,000 ${load.work}`, unit: 'ms' },
            ...{ better: 'lower' },
            ...{ ours: cpu('on'), bare: cpu('off') },
            ...{ ...(spec.cpu && { bound: spec.cpu.bound, target: spec.cpu.text }) },
            note: `user + system time of the simulator process over each turn; rounds on/off ms: ${rounds(cpu('on'), cpu('off'), 1)}${spec.note ? `; ${spec.note}` : ''}`,
          }),
        ];
      } finally {
        await load.close();
        await Promise.all(servers.map((s) => s.stop()));
      }
      return { rows };
    },
  };
}
