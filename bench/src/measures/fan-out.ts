import { shouldProfile, type BenchContext } from '../context';
import { charged } from '../lib/server-cpu-turn';
import type { ChildServer } from '../lib/child-server';
import { compare } from '../lib/compare';
import { bareWs, jsonStream, stompSubscribers, type Clients } from '../lib/delivery-clients';
import { OpenLoopClients } from '../lib/open-loop-fan-out';
import { OpenLoopTally } from '../lib/open-loop-tally';
import { profileSim } from '../lib/profiled';
import { perRound, round } from '../lib/stats';
import { startProbedSimulator, type SimKind } from '../lib/simulator-process';
import { startBaseline } from '../baselines/start-baseline';
import type { Comparison, MeasureBody, ProfileSummary } from '../types';

interface Scenario {
  readonly label: string;
  readonly kind: SimKind;
  ours(server: ChildServer, clients: number): Clients;
}

const JSON_STREAM: Scenario = {
  label: 'JSON: transient /api/message -> WebSocket clients',
  kind: 'json',
  ours: jsonStream,
};

const LEGACY_STOMP: Scenario = {
  label: 'legacy: NonDurable -> STOMP subscribers',
  kind: 'legacy',
  ours: stompSubscribers,
};

/** One side's clients, its server, and its rounds. */
interface Side {
  readonly clients: OpenLoopClients;
  readonly server: ChildServer;
  readonly tally: OpenLoopTally;
}

/** One open-loop round of a side, charged with the CPU its server process used meanwhile. */
async function turn(side: Side, rate: number, ms: number): Promise<void> {
  const result = await charged(side.server, async () => {
    const r = await side.clients.round(rate, ms);
    return { ...r, rate: r.deliveredPerSecond, units: r.deliveries };
  });
  // charged() gives ms per 1,000 units, which is µs per delivery.
  side.tally.add(result, result.cpuMsPer1000);
}

/** Delivered / offered that counts as keeping up. */
const KEEP_UP = 0.98;

const fixed = (values: readonly number[], digits: number) => values.map((v) => round(v, digits));
const pairs = (a: readonly number[], b: readonly number[], digits: number) =>
  fixed(a, digits)
    .map((x, k) => `${x}/${fixed(b, digits)[k]}`)
    .join(', ');

function lostNote(ours: OpenLoopTally, bare: OpenLoopTally): string {
  if (ours.lost === 0 && bare.lost === 0) {
    return `every delivery counted (${ours.deliveries.toLocaleString('en-US')} per side)`;
  }
  return `LOST deliveries: ours ${ours.lost.toLocaleString('en-US')} of ${(ours.deliveries + ours.lost).toLocaleString('en-US')}, bare ${bare.lost.toLocaleString('en-US')} of ${(bare.deliveries + bare.lost).toLocaleString('en-US')}`;
}

/** The three rows of one scenario at one offered rate. */
function rows(
  label: string,
  rate: number,
  ours: OpenLoopTally,
  bare: OpenLoopTally,
  frame: number,
): Comparison[] {
  const bareName = 'bare ws broadcast';
  const ms = (v: number | null) => (v === null ? '—' : `${round(v, 2)} ms`);
  const failed =
    ours.failedPosts + bare.failedPosts > 0
      ? [`failed posts: ours ${ours.failedPosts}, bare ${bare.failedPosts}`]
      : [];
  return [
    compare({
      scenario: `${label}: server CPU per delivery`,
      unit: 'µs',
      ours: ours.cpuPerDelivery,
      bare: bare.cpuPerDelivery,
      bareName,
      better: 'lower',
      bound: 1.1,
      target: '<= 1.1x bare',
      ratios: perRound(ours.cpuUs, bare.cpuUs),
      note: [
        `user + system time of each server process over its turns / deliveries; frame ${frame} bytes`,
        `rounds ours/bare µs: ${pairs(ours.cpuUs, bare.cpuUs, 2)}`,
      ].join('; '),
    }),
    compare({
      scenario: `${label}: p99 latency`,
      unit: 'ms',
      ours: ours.latency(99),
      bare: bare.latency(99),
      bareName,
      better: 'lower',
      bound: 2,
      target: '<= 2x bare',
      ratios: perRound(ours.p99, bare.p99),
      note: [
        `p50 ${ms(ours.latency(50))} against ${ms(bare.latency(50))}`,
        `rounds ours/bare p99 ms: ${pairs(ours.p99, bare.p99, 1)}`,
        lostNote(ours, bare),
        ...failed,
      ].join('; '),
    }),
    compare({
      scenario: `${label}: delivered msg/s`,
      unit: 'msg/s',
      ours: ours.deliveredMedian,
      bare: bare.deliveredMedian,
      bareName,
      peers: [{ name: 'offered', value: rate }],
      better: 'higher',
      bound: KEEP_UP,
      target: `keeps up: >= ${KEEP_UP}x offered`,
      ratios: ours.delivered.map((v) => v / rate),
      ratioLabel: 'ours / offered, median of rounds (min–max)',
      note: [
        `rounds ours/bare msg/s: ${pairs(ours.delivered, bare.delivered, 1)}`,
        `posts late on their schedule by ${round(ours.postLagMs, 2)} / ${round(bare.postLagMs, 2)} ms on average (ours / bare turns)`,
        `load generator (harness) up to ${Math.round(Math.max(ours.harnessCpuShare, bare.harnessCpuShare) * 100)}% of a core`,
      ].join('; '),
    }),
  ];
}

async function runScenario(
  ctx: BenchContext,
  scenario: Scenario,
): Promise<{ rows: Comparison[]; notes: string[]; profile?: ProfileSummary }> {
  const { clients, rate, roundMs, rounds, warmupMs } = ctx.config.fanOut;
  ctx.log(
    `  ${scenario.label}: ${clients} clients, ${rate} msg/s, ${rounds} paired rounds of ${roundMs} ms per side`,
  );
  const [sim, broadcast] = await Promise.all([
    startProbedSimulator(ctx, scenario.kind),
    startBaseline(ctx, 'bare-broadcast'),
  ]);
  const sides: Side[] = [];
  const notes: string[] = [];
  const label = `${scenario.label} (${clients} clients, ${rate} msg/s offered)`;
  const open = async (server: ChildServer, clients: Clients) => {
    const side = { clients: new OpenLoopClients(clients), server, tally: new OpenLoopTally() };
    sides.push(side);
    await side.clients.connect();
    await side.clients.round(rate, warmupMs);
    return side;
  };
  let out: Comparison[];
  try {
    const ours = await open(sim, scenario.ours(sim, clients));
    const sample = ours.clients.sample;
    if (!sample) throw new Error(`${scenario.label}: no frame received`);
    const bare = await open(broadcast, bareWs(broadcast, clients, sample));
    // Paired rounds: ours and bare back to back, which goes first alternating, so drift and
    // other load on the machine fall on both alike.
    for (let r = 0; r < rounds; r++) {
      for (const side of r % 2 === 0 ? [ours, bare] : [bare, ours]) await turn(side, rate, roundMs);
    }
    const [o, b] = [ours.tally, bare.tally];
    out = rows(label, rate, o, b, sample.length);
    if (o.lost + b.lost > 0) notes.push(`${label}: ${lostNote(o, b)}`);
    // Then the limit is the machine or the load generator, not the simulator: say so.
    if ((b.deliveredMedian ?? 0) < KEEP_UP * rate) {
      notes.push(
        `${label}: the bare baseline did not keep up either (${round(b.deliveredMedian ?? 0, 1)} msg/s): the machine or the load generator limits this run, so its ratios say little about the simulator`,
      );
    }
    ctx.log(
      `    ${rate} msg/s: CPU/delivery ${round(o.cpuPerDelivery ?? NaN, 2)} / ${round(b.cpuPerDelivery ?? NaN, 2)} µs, p99 ${round(o.latency(99) ?? NaN, 1)} / ${round(b.latency(99) ?? NaN, 1)} ms (ours / bare)`,
    );
  } finally {
    for (const side of sides) side.clients.close();
    await Promise.all([sim.close(), broadcast.close()]);
  }
  if (!out.some((row) => shouldProfile(ctx, row.verdict))) return { rows: out, notes };
  let side: OpenLoopClients | undefined;
  const { summary: profile } = await profileSim(
    ctx,
    scenario.label,
    scenario.kind,
    {},
    {
      setup: async (server) => {
        side = new OpenLoopClients(scenario.ours(server, clients));
        await side.connect();
      },
      run: async () => void (await side?.round(rate, ctx.config.profileMs)),
      teardown: () => side?.close(),
    },
  );
  return { rows: out, notes, profile };
}

export async function fanOut(ctx: BenchContext): Promise<MeasureBody> {
  const { clients, rate, roundMs, rounds, warmupMs } = ctx.config.fanOut;
  const notes: string[] = [];
  if (ctx.profileMode === 'never') notes.push('quick mode: no profile is taken on a miss');
  const comparisons: Comparison[] = [];
  const profiles: ProfileSummary[] = [];
  for (const scenario of [JSON_STREAM, LEGACY_STOMP]) {
    const result = await runScenario(ctx, scenario);
    comparisons.push(...result.rows);
    notes.push(...result.notes);
    if (result.profile) profiles.push(result.profile);
  }
  return {
    method: [
      `Open loop: ${clients} WebSocket clients per side (STOMP: ${clients} subscribers) in the harness process, each server in its own process. Transient messages are posted at a fixed offered rate (${rate} msg/s) on a schedule that never waits for answers or deliveries: message k is due at t0 + k / rate, so a server that falls behind shows as latency and as a lower delivered rate.`,
      `Paired rounds: ${rounds} rounds of ${roundMs} ms of posting per side (then the drain of the last deliveries), each running ours and the bare baseline back to back, which goes first alternating each round, after a discarded ${warmupMs} ms warm-up of each. The Ratio column is the median of the per-round ratios ours / bare with their lowest and highest; Ours and bare are over every delivery of every round.`,
      'Server CPU per delivery: user + system time of the server process (process.cpuUsage() over IPC, before and after each turn) divided by the deliveries the clients counted.',
      "Latency: each client stamps every delivery on arrival; latency = arrival - the moment that message's post was issued (a client's n-th frame is the n-th message: the server sends every message to every client, in order on each connection). p50 and p99 over every delivery, none sampled away. How late the posts were against their schedule is reported apart, as is the harness's own CPU, since the harness receives every delivery of both sides.",
      'Delivered msg/s: deliveries per client over the time from the first due post to the last delivery plus one posting interval, so a server that delivers at once scores the offered rate; it must keep up (>= 0.98x offered). Every client must get every message: lost deliveries (none arrived for 3 s, or still missing 10 s after the posts were answered) are reported.',
      'Baseline: a bare ws server broadcasting the posted bytes as a text frame; it is posted exactly the frame our clients received, so both sides send the same bytes. The clients skip the UTF-8 check of text frames, so the harness does the same work per delivery on both sides.',
    ],
    comparisons,
    notes,
    profiles,
  };
}
