import { ClientSide, clientProcesses } from '../clients/client-side';
import type { ClientKind } from '../clients/sets';
import { httpRequest } from '../harness/http';
import { load } from '../harness/load';
import { AUTH } from '../harness/payloads';
import { MEASURED, startSim, type Server, type SimKind, type Worker } from '../harness/processes';
import { profileDiff, profileRun, shouldProfile, type ProfiledDrive } from '../harness/profile';
import { count, med, pairedRounds, pairedRow, rounds } from '../harness/rows';
import { seedFile, simState, startStore } from '../harness/store';
import type { BenchConfig } from '../config';
import type { BenchContext, Comparison, ProfileSummary, Scenario } from '../types';
import { PAGING } from './read-paths';

type Side = 'on' | 'off';
const SIDES: readonly Side[] = ['on', 'off'];

/** A target on the on / off ratio of a row. */
interface Bound {
  readonly bound: number;
  readonly text: string;
}

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
  /** Targets of the throughput row (higher is better) and of the CPU-per-unit row (lower is better). */
  readonly rate?: Bound;
  readonly cpu?: Bound;
  /** Where the CPU rows' note says the side's logs go, and the like. */
  readonly note?: string;
}

interface Load {
  readonly label: string;
  readonly unit: 'msg/s' | 'req/s';
  readonly work: 'messages' | 'requests';
  /** Connects clients or checks the pages. */
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
  const samples: Partial<Record<Side, Buffer>> = {};
  const connections = ctx.config.controlPlane.readConnections;
  return {
    label: label?.(events) ?? scenario.label,
    unit: 'req/s',
    work: 'requests',
    async setup(server, side) {
      ports[side] = server.port;
      const answer = await httpRequest({ port: server.port, path: walks[side].sample, headers: AUTH });
      if (answer.status !== 200) throw new Error(`${walks[side].sample}: HTTP ${answer.status} (${side})`);
      samples[side] = answer.body;
      // The same page on both sides, but for the time each event was stored.
      const masked = (body?: Buffer) => body?.toString('utf8').replace(/"created_at":"[^"]*"/g, '');
      if (side === 'off' && masked(samples.on) !== masked(samples.off)) {
        throw new Error('the two sides answered a page differently');
      }
    },
    async turn(side, ms) {
      const options = {
        port: ports[side],
        path: walks[side].next,
        headers: AUTH,
        connections,
        seconds: ms / 1000,
      };
      const result = await load(options);
      if (result.bad > 0) throw new Error(`${scenario.label}: ${result.bad} failed requests (${side})`);
      return { rate: result.requestsPerSecond, units: result.requests };
    },
    note: () => `${samples.on?.length} B/response`,
    close: () => Promise.resolve(),
  };
}

/** Deliveries to clients in client processes, at most `window` posted but not yet delivered everywhere. */
function deliveries(ctx: BenchContext, label: string, kind: ClientKind, clients: number): Load {
  const sides: Partial<Record<Side, ClientSide>> = {};
  let workers: Worker[] = [];
  return {
    label: `${label} (${clients} clients)`,
    unit: 'msg/s',
    work: 'messages',
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
 * process used per 1,000 units of work, on against off. A miss is profiled on both sides and the
 * difference of the two profiles per unit of work shows where the extra CPU goes.
 */
export function abPair(spec: AbSpec): Scenario {
  const loadOf = (ctx: BenchContext): Load =>
    'clients' in spec.work
      ? deliveries(ctx, spec.work.label, spec.work.clients, spec.work.count(ctx.config))
      : reads(ctx, spec.work.events(ctx.config), spec.work.label);
  const start = (ctx: BenchContext, side: Side) => {
    const env = { ...MEASURED, ...spec.env[side] };
    if ('clients' in spec.work) return startSim(ctx.simRoot, spec.kind, { env });
    const events = spec.work.events(ctx.config);
    return startStore(ctx.simRoot, events, { env, args: ['--seed', seedFile(ctx.rawDir, events)] });
  };
  return {
    method: ({ config: { controlPlane: c } }) => [
      `Two simulators of the same kind as users run them (the built \`racedata-sim\` command), each in its own process, identical but for ${spec.what} (on in Ours, off in the baseline); a store both read is filled at start (--seed FILE, the same events on both sides).`,
      `Both are driven from the harness process with the same request shapes, in ${c.rounds} paired rounds of ${c.roundMs} ms per side; which side goes first alternates each round, after a warm-up of each. Each round gives a ratio on / off; the Ratio column is the median of those ratios with their lowest and highest, Ours and the baseline the medians of their rounds.`,
      `Deliveries: messages per second that reached every client, with at most ${c.window} posted but not yet delivered to every client. Page reads: autocannon, ${c.readConnections} connections, GET /customerapi/events?lastEventId=..&limit=100, every page full, the same sequence of pages on both sides.`,
      'Below each throughput row, the CPU time (user + system, from /proc) the simulator process used per 1,000 units of work over each turn, on against off: it charges the switch with its cost directly, and moves less than the rates when the harness or other load on the machine limits them.',
    ],
    async run(ctx) {
      const { rounds: n, roundMs } = ctx.config.controlPlane;
      const work = loadOf(ctx);
      ctx.log(`  ${work.label}, ${spec.what} on / off: ${n} paired rounds of ${roundMs} ms per side`);
      const servers: Server[] = [];
      let rows: Comparison[];
      try {
        servers.push(...(await Promise.all(SIDES.map((side) => start(ctx, side)))));
        const [on, off] = servers as [Server, Server];
        await work.setup(on, 'on');
        await work.setup(off, 'off');
        if (!('clients' in spec.work)) {
          const last = (await simState(on.port).catch(() => undefined))?.store?.lastEventId;
          const events = spec.work.events(ctx.config);
          if (last !== undefined && last !== events)
            throw new Error(`--seed stored up to eventId ${last}, not ${events}`);
        }
        for (const side of SIDES) await work.turn(side, ctx.config.quick ? 100 : 1000);
        const turns = await pairedRounds(n, { on: on.pid, off: off.pid }, (side) => work.turn(side, roundMs));
        const rate = (side: Side) => turns[side].map((t) => t.rate);
        const cpu = (side: Side) => turns[side].map((t) => t.cpuMsPerUnit * 1000);
        const common = {
          bareName: `${spec.what} off`,
          ratioLabel: 'on / off, median of paired rounds (min–max)',
        };
        rows = [
          pairedRow({
            ...{ ...common, scenario: work.label, unit: work.unit, ours: rate('on'), bare: rate('off') },
            ...{ better: 'higher', ...(spec.rate && { bound: spec.rate.bound, target: spec.rate.text }) },
            note: `rounds on/off ${work.unit}: ${rounds(rate('on'), rate('off'))}; ${work.note(med(rate('on')) ?? 0, med(rate('off')) ?? 0)}`,
          }),
          pairedRow({
            ...{ ...common, scenario: `${work.label}: simulator CPU per 1,000 ${work.work}`, unit: 'ms' },
            ...{ ours: cpu('on'), bare: cpu('off'), better: 'lower' },
            ...(spec.cpu && { bound: spec.cpu.bound, target: spec.cpu.text }),
            note: `user + system time of the simulator process over each turn; rounds on/off ms: ${rounds(cpu('on'), cpu('off'), 1)}${spec.note ? `; ${spec.note}` : ''}`,
          }),
        ];
      } finally {
        await work.close();
        await Promise.all(servers.map((s) => s.stop()));
      }
      if (!rows.some((row) => shouldProfile(ctx, row.verdict))) return { rows };
      return { rows, profiles: await profileBoth(ctx, spec, work.label, loadOf, start) };
    },
  };
}

/** Both sides rerun alone under the profiler with the same drive, and where the extra CPU goes. */
async function profileBoth(
  ctx: BenchContext,
  spec: AbSpec,
  label: string,
  loadOf: (ctx: BenchContext) => Load,
  start: (ctx: BenchContext, side: Side) => Promise<Server>,
): Promise<ProfileSummary[]> {
  const runs = [];
  for (const side of SIDES) {
    const work = loadOf(ctx);
    const drive: ProfiledDrive = {
      setup: async (server) => {
        await work.setup(server, 'on');
        await work.turn('on', 1000);
      },
      run: async () => (await work.turn('on', ctx.config.profileMs)).units,
      teardown: () => work.close(),
    };
    runs.push(await profileRun(ctx, `${label}, ${spec.what} ${side}`, () => start(ctx, side), drive));
  }
  const [on, off] = runs as [(typeof runs)[0], (typeof runs)[0]];
  const unit = loadOf(ctx).work;
  const diff = profileDiff(
    { file: on.file, units: on.units },
    { file: off.file, units: off.units },
    { subject: label, root: ctx.root, per: 1000, unit, sides: `with ${spec.what} on than off` },
  );
  return [diff, on.summary, off.summary];
}
