import { shouldProfile, type BenchContext } from '../context';
import type { ChildServer } from '../lib/child-server';
import { compare } from '../lib/compare';
import {
  barePolls,
  bareWs,
  jsonEventPolls,
  jsonStream,
  legacyListens,
  stompSubscribers,
  type Clients,
} from '../lib/delivery-clients';
import { DeliveryRounds } from '../lib/delivery-rounds';
import { distribution, Samples, type Distribution } from '../lib/stats';
import { profileSim } from '../lib/profiled';
import { startProbedSimulator, type SimKind, type ProbedSimulatorOptions } from '../lib/simulator-process';
import { startBaseline } from '../baselines/start-baseline';
import type { Comparison, MeasureBody, ProfileSummary } from '../types';

interface Scenario {
  readonly label: string;
  readonly kind: SimKind;
  readonly simOptions: ProbedSimulatorOptions;
  ours(server: ChildServer, clients: number): Clients;
  bare(server: ChildServer, clients: number, body: Buffer): Clients;
}

const SCENARIOS = (clients: number): Scenario[] => [
  {
    label: 'JSON: POST /api/message -> held GET /customerapi/events',
    kind: 'json',
    simOptions: {},
    ours: jsonEventPolls,
    bare: barePolls,
  },
  {
    label: 'JSON: POST /api/message -> WebSocket Data',
    kind: 'json',
    simOptions: {},
    ours: jsonStream,
    bare: bareWs,
  },
  {
    label: 'legacy: POST NonDurable -> STOMP MESSAGE',
    kind: 'legacy',
    simOptions: {},
    ours: stompSubscribers,
    bare: bareWs,
  },
  // One legacy queue per user: 200 users, each with a held listen, so one Durable post to `id` reaches 200 polls.
  {
    label: 'legacy: POST Durable -> held GET /customerapi/channels/listen',
    kind: 'legacy',
    simOptions: { extraUsers: clients },
    ours: legacyListens,
    bare: barePolls,
  },
];

/**
 * Alternates the two targets round by round (which goes first alternates too), so drift in the
 * machine's speed during the run falls on both sides alike.
 */
async function interleavedLatency(
  ours: DeliveryRounds,
  bare: DeliveryRounds,
  plan: { messages: number; rounds: number; warmup: number },
): Promise<{ ours: Distribution; bare: Distribution }> {
  const samples = new Map<DeliveryRounds, Samples>([
    [ours, new Samples()],
    [bare, new Samples()],
  ]);
  let seq = 1_000_000;
  for (const target of [ours, bare]) {
    for (let i = 0; i < plan.warmup; i++) await target.deliverOne(seq++, undefined);
  }
  const perRound = Math.ceil(plan.messages / plan.rounds);
  for (let round = 0; round < plan.rounds; round++) {
    const order = round % 2 === 0 ? [ours, bare] : [bare, ours];
    for (const target of order) {
      for (let i = 0; i < perRound; i++) await target.deliverOne(seq++, samples.get(target));
    }
  }
  return {
    ours: distribution((samples.get(ours) as Samples).values()),
    bare: distribution((samples.get(bare) as Samples).values()),
  };
}

/** Drives only our side for a while (a profiled rerun of a missed measure). */
async function driveFor(target: DeliveryRounds, ms: number): Promise<void> {
  const end = Date.now() + ms;
  let seq = 2_000_000;
  while (Date.now() < end) await target.deliverOne(seq++, undefined);
}

async function runScenario(
  ctx: BenchContext,
  scenario: Scenario,
): Promise<{ rows: Comparison[]; profile?: ProfileSummary }> {
  const { clients, messages, rounds } = ctx.config.latency;
  const warmup = ctx.config.quick ? 5 : 50;
  ctx.log(`  ${scenario.label}: ${clients} clients, ${messages} messages per side`);
  const [sim, forwarder] = await Promise.all([
    startProbedSimulator(ctx, scenario.kind, scenario.simOptions),
    startBaseline(ctx, 'bare-forwarder'),
  ]);
  const targets: DeliveryRounds[] = [];
  let result;
  try {
    const ours = new DeliveryRounds(scenario.ours(sim, clients));
    targets.push(ours);
    await ours.connect();
    for (let i = 0; i < warmup; i++) await ours.deliverOne(i, undefined);
    const body = ours.sample;
    if (!body) throw new Error(`${scenario.label}: no sample body`);
    const bare = new DeliveryRounds(scenario.bare(forwarder, clients, body));
    targets.push(bare);
    await bare.connect();
    result = await interleavedLatency(ours, bare, { messages, rounds, warmup });
  } finally {
    for (const target of targets) target.close();
    await Promise.all([sim.close(), forwarder.close()]);
  }
  const note = `${result.ours.count} / ${result.bare.count} deliveries (ours / bare); means ${result.ours.mean.toFixed(2)} / ${result.bare.mean.toFixed(2)} ms`;
  const rows = [
    compare({
      scenario: `${scenario.label}, p50`,
      unit: 'ms',
      ours: result.ours.p50,
      bare: result.bare.p50,
      better: 'lower',
    }),
    compare({
      scenario: `${scenario.label}, p99`,
      unit: 'ms',
      ours: result.ours.p99,
      bare: result.bare.p99,
      better: 'lower',
      bound: 2,
      target: 'p99 <= 2x bare',
      note,
    }),
  ];
  if (!shouldProfile(ctx, rows[1]?.verdict ?? '')) return { rows };
  let target: DeliveryRounds | undefined;
  const { summary: profile } = await profileSim(ctx, scenario.label, scenario.kind, scenario.simOptions, {
    setup: async (server) => {
      target = new DeliveryRounds(scenario.ours(server, clients));
      await target.connect();
    },
    run: () => driveFor(target as DeliveryRounds, ctx.config.profileMs),
    teardown: () => target?.close(),
  });
  return { rows, profile };
}

export async function deliveryLatency(ctx: BenchContext): Promise<MeasureBody> {
  const { clients, messages, rounds } = ctx.config.latency;
  const notes: string[] = [];
  if (ctx.profileMode === 'never') notes.push('quick mode: no profile is taken on a miss');
  const comparisons: Comparison[] = [];
  const profiles: ProfileSummary[] = [];
  for (const scenario of SCENARIOS(clients)) {
    const { rows, profile } = await runScenario(ctx, scenario);
    comparisons.push(...rows);
    if (profile) profiles.push(profile);
  }
  return {
    method: [
      `${clients} connected clients per side; ${messages} messages per side, one at a time, each timed from the start of its POST until each client has it (every delivery is a sample).`,
      `Ours and the bare forwarder alternate in ${rounds} rounds within the run; before each long-poll message the harness waits until the server holds all ${clients} polls.`,
      'The bare forwarder (Node http + ws, no logic) is posted the exact bytes our clients received, and forwards them to every held GET / WebSocket.',
      'Clients and the poster run in the harness process; each server runs in its own process.',
    ],
    comparisons,
    notes,
    profiles,
  };
}
