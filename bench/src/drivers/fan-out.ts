import { withSides, type ClientSide, type OpenLoopRound } from '../clients/client-side';
import { MEASURED, ourSim, startBare, type SimKind } from '../harness/processes';
import {
  compare,
  count,
  med,
  pairedRounds,
  percentile,
  perRound,
  round,
  rounds,
  sorted,
} from '../harness/rows';
import type { Comparison, Scenario } from '../types';

type FanOutSpec = { label: string; kind: SimKind; clients: 'event-stream' | 'stomp' };

/** Delivered / offered that counts as keeping up. */
const KEEP_UP = 0.98;

type Turn = OpenLoopRound & { units: number; cpuMsPerUnit: number };

/** One side's rounds: per round (for the paired ratios) and over every delivery. */
function tally(turns: readonly Turn[]) {
  const all = sorted(turns.map((t) => t.latency));
  const sum = (of: (t: Turn) => number) => turns.reduce((n, t) => n + of(t), 0);
  const deliveries = sum((t) => t.deliveries);
  return {
    ...{ deliveries, lost: sum((t) => t.lost), failedPosts: sum((t) => t.failedPosts) },
    /** Server CPU per delivery per round, µs (ms per unit x 1000). */
    cpuUs: turns.map((t) => t.cpuMsPerUnit * 1000),
    /** CPU over every round divided by every delivery (not a median of rounds). */
    cpuPerDelivery: deliveries > 0 ? sum((t) => t.cpuMsPerUnit * 1000 * t.units) / deliveries : null,
    p99: turns.map((t) => percentile(t.latency, 99)),
    latency: (p: number) => (all.length > 0 ? percentile(all, p) : null),
    delivered: turns.map((t) => t.deliveredPerSecond),
    lagMs: sum((t) => t.postLagMs) / Math.max(1, turns.length),
    clientsShare: Math.max(0, ...turns.map((t) => t.clientsCpuShare)),
    harnessShare: Math.max(0, ...turns.map((t) => t.harnessCpuShare)),
  };
}

type Tally = ReturnType<typeof tally>;

function lostNote(ours: Tally, bare: Tally): string {
  if (ours.lost + bare.lost === 0) return `every delivery counted (${count(ours.deliveries)} per side)`;
  const of = (t: Tally) => `${count(t.lost)} of ${count(t.deliveries + t.lost)}`;
  return `LOST deliveries: ours ${of(ours)}, bare ${of(bare)}`;
}

/** The three rows of one scenario at one offered rate. */
function fanOutRows(label: string, rate: number, ours: Tally, bare: Tally, frame: number): Comparison[] {
  const bareName = 'bare ws broadcast';
  const ms = (v: number | null) => (v === null ? '—' : `${round(v, 2)} ms`);
  const failed = ours.failedPosts + bare.failedPosts;
  return [
    compare({
      ...{ scenario: `${label}: server CPU per delivery`, unit: 'µs', ours: ours.cpuPerDelivery },
      ...{ bare: bare.cpuPerDelivery },
      ...{ bareName, better: 'lower', bound: 1.1, target: '<= 1.1x bare' },
      ...{ ratios: perRound(ours.cpuUs, bare.cpuUs) },
      note: `user + system time of each server process over its turns / deliveries; frame ${frame} bytes; rounds ours/bare µs: ${rounds(ours.cpuUs, bare.cpuUs, 2)}`,
    }),
    compare({
      ...{ scenario: `${label}: p99 latency`, unit: 'ms', ours: ours.latency(99), bare: bare.latency(99) },
      ...{ bareName, better: 'lower', bound: 2, target: '<= 2x bare', ratios: perRound(ours.p99, bare.p99) },
      note: [
        `p50 ${ms(ours.latency(50))} against ${ms(bare.latency(50))}`,
        `rounds ours/bare p99 ms: ${rounds(ours.p99, bare.p99, 1)}`,
        lostNote(ours, bare),
        ...(failed > 0 ? [`failed posts: ours ${ours.failedPosts}, bare ${bare.failedPosts}`] : []),
      ].join('; '),
    }),
    compare({
      ...{ scenario: `${label}: delivered msg/s`, unit: 'msg/s', ours: med(ours.delivered) },
      ...{ bare: med(bare.delivered) },
      ...{ bareName, peers: [{ name: 'offered', value: rate }], better: 'higher', bound: KEEP_UP },
      ...{ target: `keeps up: >= ${KEEP_UP}x offered`, ratios: ours.delivered.map((v) => v / rate) },
      ratioLabel: 'ours / offered, median of rounds (min–max)',
      note: [
        `rounds ours/bare msg/s: ${rounds(ours.delivered, bare.delivered, 1)}`,
        `posts late on their schedule by ${round(ours.lagMs, 2)} / ${round(bare.lagMs, 2)} ms on average (ours / bare turns)`,
        `load generator: each client process up to ${Math.round(Math.max(ours.clientsShare, bare.clientsShare) * 100)}% of a core, the poster (harness) up to ${Math.round(Math.max(ours.harnessShare, bare.harnessShare) * 100)}%`,
      ].join('; '),
    }),
  ];
}

/**
 * Fan-out, open loop: transient messages posted at a fixed rate to many clients held by client
 * processes of their own, ours against a bare ws broadcast of the same frame in paired rounds.
 */
export function fanOut(spec: FanOutSpec): Scenario {
  return {
    method: ({ config: { fanOut: c, clientProcesses: workers } }) => [
      `Open loop: ${c.clients} WebSocket clients per side (STOMP: ${c.clients} subscribers), held by ${workers} client processes of their own (${c.clients / workers} each) that report counts and every delivery's latency to the harness over IPC; each server runs in its own process; the harness only posts. Transient messages are posted at a fixed offered rate (${c.rate} msg/s) on a schedule that never waits for answers or deliveries: message k is due at t0 + k / rate, so a server that falls behind shows as latency and as a lower delivered rate.`,
      `Paired rounds: ${c.rounds} rounds of ${c.roundMs} ms of posting per side (then the drain of the last deliveries), each running ours and the bare baseline back to back, which goes first alternating each round, after a discarded ${c.warmupMs} ms warm-up of each. The Ratio column is the median of the per-round ratios ours / bare with their lowest and highest; Ours and bare are over every delivery of every round.`,
      'Server CPU per delivery: user + system time of the server process (from /proc, before and after each turn) divided by the deliveries the clients counted.',
      "Latency: each client stamps every delivery on arrival with CLOCK_MONOTONIC, which the harness also stamps each post with; latency = arrival - the moment that message's post was issued (a client's n-th frame is the n-th message: the server sends every message to every client, in order on each connection). p50 and p99 over every delivery, none sampled away. How late the posts were against their schedule is reported apart, as is the CPU of the client processes and of the poster.",
      'Delivered msg/s: deliveries per client over the time from the first due post to the last delivery plus one posting interval, so a server that delivers at once scores the offered rate; it must keep up (>= 0.98x offered). Every client must get every message: lost deliveries (none arrived for 3 s, or still missing 10 s after the posts were answered) are reported.',
      'Baseline: a bare ws server broadcasting the posted bytes as a text frame; it is posted exactly the frame our clients received, so both sides send the same bytes. The clients skip the UTF-8 check of text frames, so they do the same work per delivery on both sides.',
    ],
    async run(ctx) {
      const { clients: count, rate, roundMs, rounds: n, warmupMs } = ctx.config.fanOut;
      const processes = ctx.config.clientProcesses;
      ctx.log(
        `  ${spec.label}: ${count} clients in ${processes} processes, ${rate} msg/s, ${n} rounds of ${roundMs} ms`,
      );
      const label = `${spec.label} (${count} clients, ${rate} msg/s offered)`;
      const servers = [() => ourSim(ctx, spec.kind, { env: MEASURED }), startBare] as const;
      const sides = { servers, clients: [spec.clients, 'bare-ws'], count } as const;
      const warm = (side: ClientSide) => side.openLoop(rate, warmupMs);
      const [o, b, frame] = await withSides(ctx, sides, warm, async (both, pids) => {
        const turns = await pairedRounds(n, pids, async (name) => {
          const r = await both[name].openLoop(rate, roundMs);
          return { ...r, units: r.deliveries };
        });
        return [tally(turns.ours), tally(turns.bare), (await both.ours.sample()).length] as const;
      });
      const notes = o.lost + b.lost > 0 ? [`${label}: ${lostNote(o, b)}`] : [];
      // Then the limit is the machine or the load generator, not the simulator: say so.
      if ((med(b.delivered) ?? 0) < KEEP_UP * rate) {
        notes.push(
          `${label}: the bare baseline did not keep up either (${round(med(b.delivered) ?? 0, 1)} msg/s): the machine or the load generator limits this run, so its ratios say little about the simulator`,
        );
      }
      return { rows: fanOutRows(label, rate, o, b, frame), notes };
    },
  };
}
