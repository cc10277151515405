import { ClientSide, clientProcesses } from '../clients/client-side';
import type { ClientKind } from '../clients/sets';
import { MEASURED, ourSim, startBare, type Server, type SimKind, type Worker } from '../harness/processes';
import { compare } from '../harness/rows';
import { Histogram } from '../harness/stats';
import { usersFile } from '../harness/users-file';
import type { BenchContext, Scenario } from '../types';

export interface LatencySpec {
  readonly label: string;
  readonly kind: SimKind;
  /** Our clients, and the bare baseline's that receive the same bytes. */
  readonly ours: ClientKind;
  readonly bare: 'bare-polls' | 'bare-ws';
  /** One user per client (legacy listens: one queue each, so one Durable post fills them all). */
  readonly userPerClient?: boolean;
}

/**
 * Delivery latency, closed loop: one message at a time, each timed from the start of its POST
 * until each client has it, ours and the bare forwarder alternating in rounds.
 */
export function latency(spec: LatencySpec): Scenario {
  const start = (ctx: BenchContext) => {
    const users = spec.userPerClient && usersFile(ctx.rawDir, spec.kind, ctx.config.latency.clients);
    return ourSim(ctx, spec.kind, { env: { ...MEASURED, ...(users && { USERS_FILE: users }) } });
  };
  return {
    method: ({ config: { latency: c, clientProcesses } }) => [
      `${c.clients} connected clients per side, held by ${clientProcesses} client processes of their own; ${c.messages} messages per side, one at a time, each timed from the start of its POST (in the harness) until each client has it (in its process, on CLOCK_MONOTONIC, which every process reads alike); every delivery is a sample.`,
      `Ours and the bare forwarder alternate in ${c.rounds} rounds within the run; before each long-poll message the harness waits until the server holds all ${c.clients} polls (GET /_sim/state).`,
      'The bare forwarder (Node http + ws, no logic: bench/src/servers/bare-node.cjs) is posted the exact bytes our clients received, and forwards them to every held GET / WebSocket.',
    ],
    async run(ctx) {
      const { clients: count, messages, rounds } = ctx.config.latency;
      const warmup = ctx.config.quick ? 5 : 50;
      ctx.log(`  ${spec.label}: ${count} clients, ${messages} messages per side`);
      const servers: Server[] = [];
      let workers: Worker[] = [];
      const latency = [new Histogram(), new Histogram()] as const;
      try {
        servers.push(...(await Promise.all([start(ctx), startBare()])));
        const [sim, bare] = servers as [Server, Server];
        workers = await clientProcesses(ctx.config.clientProcesses);
        const ours = await ClientSide.open(workers, { kind: spec.ours, port: sim.port, count });
        for (let i = 0; i < warmup; i++) await ours.deliverOne();
        const sides = [
          ours,
          await ClientSide.open(workers, { kind: spec.bare, port: bare.port, count }, await ours.sample()),
        ];
        for (const side of sides) for (let i = 0; i < warmup; i++) await side.deliverOne();
        // Alternating which goes first, so drift in the machine's speed falls on both sides alike.
        for (let r = 0; r < rounds; r++) {
          for (const k of r % 2 === 0 ? [0, 1] : [1, 0]) {
            for (let i = 0; i < Math.ceil(messages / rounds); i++) {
              const one = await (sides[k] as ClientSide).deliverOne();
              latency[k as 0 | 1].merge(one.counts, one.sum);
            }
          }
        }
      } finally {
        await Promise.all([...servers.map((s) => s.stop()), ...workers.map((w) => w.close())]);
      }
      const [o, b] = latency;
      const mean = (h: Histogram) => (h.sum / h.count).toFixed(2);
      const note = `${o.count} / ${b.count} deliveries (ours / bare); means ${mean(o)} / ${mean(b)} ms`;
      const rows = [
        compare({
          scenario: `${spec.label}, p50`,
          unit: 'ms',
          ours: o.percentile(50),
          bare: b.percentile(50),
          better: 'lower',
        }),
        compare({
          ...{ scenario: `${spec.label}, p99`, unit: 'ms', ours: o.percentile(99), bare: b.percentile(99) },
          ...{ better: 'lower', bound: 2, target: 'p99 <= 2x bare', note },
        }),
      ];
      return { rows };
    },
  };
}
