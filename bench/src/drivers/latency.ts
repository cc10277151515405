import { withSides, type ClientSide } from '../clients/client-side';
import type { ClientKind } from '../clients/sets';
import { MEASURED, ourSim, startBare, type SimKind } from '../harness/processes';
import { compare, percentile, sorted } from '../harness/rows';
import { usersFile } from '../harness/users-file';
import type { Scenario } from '../types';

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
export const latency = (spec: LatencySpec): Scenario => ({
  method: ({ config: { latency: c, clientProcesses } }) => [
    `${c.clients} connected clients per side, held by ${clientProcesses} client processes of their own; ${c.messages} messages per side, one at a time, each timed from the start of its POST (in the harness) until each client has it (in its process, on CLOCK_MONOTONIC, which every process reads alike); every delivery is a sample.`,
    `Ours and the bare forwarder alternate in ${c.rounds} rounds within the run; before each long-poll message the harness waits until the server holds all ${c.clients} polls (GET /_sim/state).`,
    'The bare forwarder (Node http + ws, no logic: bench/src/servers/bare-node.cjs) is posted the exact bytes our clients received, and forwards them to every held GET / WebSocket.',
  ],
  async run(ctx) {
    const { clients: count, messages, rounds } = ctx.config.latency;
    const warmup = ctx.config.quick ? 5 : 50;
    ctx.log(`  ${spec.label}: ${count} clients, ${messages} messages per side`);
    const users = spec.userPerClient ? usersFile(ctx.rawDir, spec.kind, count) : undefined;
    const env = users ? { ...MEASURED, USERS_FILE: users.file } : MEASURED;
    const chunks = { ours: [] as Float64Array[], bare: [] as Float64Array[] };
    const warm = async (side: ClientSide) => {
      for (let i = 0; i < warmup; i++) await side.deliverOne();
    };
    const servers = [() => ourSim(ctx, spec.kind, { env }), startBare] as const;
    const sides = { servers, clients: [spec.ours, spec.bare], count, tokens: users?.tokens } as const;
    await withSides(ctx, sides, warm, async ({ ours, bare }) => {
      // Alternating which goes first, so drift in the machine's speed falls on both sides alike.
      for (let r = 0; r < rounds; r++) {
        for (const side of r % 2 === 0 ? [ours, bare] : [bare, ours]) {
          for (let i = 0; i < Math.ceil(messages / rounds); i++)
            chunks[side === ours ? 'ours' : 'bare'].push(await side.deliverOne());
        }
      }
    });
    const [o, b] = [sorted(chunks.ours), sorted(chunks.bare)];
    const mean = (all: Float64Array) => (all.reduce((sum, v) => sum + v, 0) / all.length).toFixed(2);
    const note = `${o.length} / ${b.length} deliveries (ours / bare); means ${mean(o)} / ${mean(b)} ms`;
    const row = (p: number) => ({
      ...({ unit: 'ms', better: 'lower', scenario: `${spec.label}, p${p}` } as const),
      ...{ ours: percentile(o, p), bare: percentile(b, p) },
    });
    return { rows: [compare(row(50)), compare({ ...row(99), bound: 2, target: 'p99 <= 2x bare', note })] };
  },
});
