import os from 'node:os';
import path from 'node:path';
import { shouldProfile, type BenchContext } from '../context';
import { charged } from '../lib/server-cpu-turn';
import type { ChildServer } from '../lib/child-server';
import { httpRequest } from '../lib/http-client';
import { load } from '../lib/load';
import { controlPlaneDiff } from '../lib/profile';
import { profileSim, readDrive, type ProfiledDrive } from '../lib/profiled';
import { median, perRound } from '../lib/stats';
import { startProbedSimulator, type SimKind, type ProbedSimulatorOptions } from '../lib/simulator-process';
import type { Comparison, MeasureBody, ProfileSummary } from '../types';
import { AUTH } from '../lib/payloads';
import { PAGING } from '../lib/read-paths';
import { compare } from '../lib/compare';
import { jsonEventPolls, jsonStream, stompSubscribers, type Clients } from '../lib/delivery-clients';
import { DeliveryRounds } from '../lib/delivery-rounds';

/** The deliveries control-plane-cost drives on both sides: one kind of client each. */
interface DeliveryScenario {
  readonly label: string;
  readonly kind: SimKind;
  clients(ctx: BenchContext): number;
  /** `from`: the store's last eventId (JSON polls wait for what comes after it). */
  open(server: ChildServer, clients: number, from: number): Clients;
}

const JSON_STREAM: DeliveryScenario = {
  label: 'JSON: transient POST /api/message -> event-stream WebSocket clients',
  kind: 'json',
  clients: (ctx) => ctx.config.controlPlane.streamClients,
  open: jsonStream,
};

const JSON_POLLS: DeliveryScenario = {
  label: 'JSON: durable POST /api/message -> held GET /customerapi/events polls',
  kind: 'json',
  clients: (ctx) => ctx.config.controlPlane.pollClients,
  open: jsonEventPolls,
};

const LEGACY_STOMP: DeliveryScenario = {
  label: 'legacy: POST NonDurable -> STOMP subscribers',
  kind: 'legacy',
  clients: (ctx) => ctx.config.controlPlane.streamClients,
  open: stompSubscribers,
};

/**
 * What the control plane (delivery journal, /metrics request wrapper, fault-rule checks) costs:
 * two simulators of one kind, identical but for CONTROL_API, driven in paired rounds.
 */
type Side = 'on' | 'off';
const SIDES: readonly Side[] = ['on', 'off'];
const CONTROL_API: Record<Side, ProbedSimulatorOptions> = {
  on: { settings: { controlApi: 'on' } },
  off: { settings: { controlApi: 'off' } },
};
const BOUND = 0.9;
const TARGET = 'on / off >= 0.90 (costs at most 10%)';

type Paired = Record<Side, number[]>;
type Pair = Record<Side, ChildServer>;

interface PairedTurns {
  readonly rate: Paired;
  readonly cpu: Paired;
}

/**
 * Runs both sides once per round, each turn charged with the CPU its simulator used meanwhile;
 * which goes first alternates, so drift falls on both alike.
 */
async function pairedRounds(
  rounds: number,
  servers: Pair,
  run: (side: Side) => Promise<{ rate: number; units: number }>,
): Promise<PairedTurns> {
  const rate: Paired = { on: [], off: [] };
  const cpu: Paired = { on: [], off: [] };
  for (let r = 0; r < rounds; r++) {
    for (const side of r % 2 === 0 ? SIDES : [...SIDES].reverse()) {
      const turn = await charged(servers[side], () => run(side));
      rate[side].push(turn.rate);
      cpu[side].push(turn.cpuMsPer1000);
    }
  }
  return { rate, cpu };
}

async function startPair(ctx: BenchContext, kind: SimKind): Promise<Record<Side, ChildServer>> {
  const started = await Promise.allSettled(
    SIDES.map((side) => startProbedSimulator(ctx, kind, CONTROL_API[side])),
  );
  const servers = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) {
    await Promise.all(servers.map((s) => s.close()));
    throw failed.reason;
  }
  return { on: servers[0] as ChildServer, off: servers[1] as ChildServer };
}

function pairedRow(
  scenario: string,
  unit: string,
  figures: Paired,
  note: string,
  target: boolean,
): Comparison {
  const rounds = figures.on
    .map((on, k) => `${Math.round(on)}/${Math.round(figures.off[k] as number)}`)
    .join(', ');
  return compare({
    scenario,
    unit,
    ours: median(figures.on),
    bare: median(figures.off),
    bareName: 'control plane off',
    better: 'higher',
    bound: BOUND,
    ...(target && { target: TARGET }),
    ratios: perRound(figures.on, figures.off),
    ratioLabel: 'on / off, median of paired rounds (min–max)',
    note: `rounds on/off ${unit}: ${rounds}${note ? `; ${note}` : ''}`,
  });
}

/** The throughput row (with the target) and the simulator's CPU per 1000 units of work (INFO). */
function costRows(
  scenario: string,
  unit: string,
  work: string,
  turns: PairedTurns,
  note: string,
): Comparison[] {
  return [
    pairedRow(scenario, unit, turns.rate, note, true),
    pairedRow(
      `${scenario}: simulator CPU per 1,000 ${work}`,
      'ms',
      turns.cpu,
      'user + system time of the simulator process over each turn; less sensitive than the rate to the harness and to other load on the machine',
      false,
    ),
  ];
}

/**
 * Profiles both sides under the same drive, one after the other, and adds where the extra CPU
 * of the side with the control plane goes, per unit of work.
 */
async function profileBoth(
  ctx: BenchContext,
  label: string,
  kind: SimKind,
  unit: string,
  per: number,
  drive: () => ProfiledDrive,
): Promise<ProfileSummary[]> {
  const runs: Array<{ summary: ProfileSummary; units: number }> = [];
  for (const side of SIDES) {
    runs.push(await profileSim(ctx, `${label}, control plane ${side}`, kind, CONTROL_API[side], drive()));
  }
  const [on, off] = runs as [(typeof runs)[0], (typeof runs)[0]];
  const work = (run: typeof on) => ({ file: path.join(ctx.root, run.summary.file), units: run.units });
  const diff = controlPlaneDiff(work(on), work(off), { subject: label, root: ctx.root, per, unit });
  return [diff, on.summary, off.summary];
}

async function runDelivery(
  ctx: BenchContext,
  scenario: DeliveryScenario,
  servers: Pair,
  from = 0,
): Promise<Comparison[]> {
  const { roundMs, rounds, window } = ctx.config.controlPlane;
  const clients = scenario.clients(ctx);
  ctx.log(`  ${scenario.label}: ${clients} clients, ${rounds} paired rounds of ${roundMs} ms per side`);
  const sides: Partial<Record<Side, DeliveryRounds>> = {};
  try {
    for (const side of SIDES) {
      sides[side] = new DeliveryRounds(scenario.open(servers[side], clients, from));
      await sides[side].connect();
    }
    for (const side of SIDES) await sides[side]?.round(ctx.config.quick ? 100 : 1000, window);
    const turns = await pairedRounds(rounds, servers, async (side) => {
      const result = await (sides[side] as DeliveryRounds).round(roundMs, window);
      return { rate: result.messagesPerSecond, units: result.messages };
    });
    const deliveries = (side: Side) => Math.round(median(turns.rate[side]) * clients).toLocaleString('en-US');
    return costRows(
      `${scenario.label} (${clients} clients)`,
      'msg/s',
      'messages',
      turns,
      `each message reaches all ${clients} clients: ${deliveries('on')} / ${deliveries('off')} deliveries/s (on / off, medians)`,
    );
  } finally {
    for (const side of SIDES) sides[side]?.close();
  }
}

/** Profiles a missed delivery scenario on fresh simulators (an empty store). */
function profileDelivery(ctx: BenchContext, scenario: DeliveryScenario): Promise<ProfileSummary[]> {
  const { window } = ctx.config.controlPlane;
  return profileBoth(ctx, scenario.label, scenario.kind, 'messages', 1000, () => {
    let deliveries: DeliveryRounds | undefined;
    return {
      setup: async (server) => {
        deliveries = new DeliveryRounds(scenario.open(server, scenario.clients(ctx), 0));
        await deliveries.connect();
        await deliveries.round(1000, window);
      },
      run: async () => (await (deliveries as DeliveryRounds).round(ctx.config.profileMs, window)).messages,
      teardown: () => deliveries?.close(),
    };
  });
}

/** Fills both stores alike and compares page reads; returns the rows and the store's last eventId. */
async function runRead(
  ctx: BenchContext,
  servers: Pair,
): Promise<{ rows: Comparison[]; lastEventId: number }> {
  const { readConnections: connections, readEvents, roundMs, rounds } = ctx.config.controlPlane;
  const scenario = PAGING(readEvents);
  ctx.log(
    `  ${scenario.label}: ${connections} connections, ${rounds} paired rounds of ${roundMs} ms per side`,
  );
  const loaded = await Promise.all(
    SIDES.map((side) => servers[side].call<{ lastEventId: number }>('preload', { count: readEvents })),
  );
  const last = loaded[0]?.lastEventId ?? 0;
  if (loaded[1]?.lastEventId !== last) throw new Error('the two stores were filled differently');
  // Each side walks the same sequence of pages.
  const walks = { on: scenario.paths(last), off: scenario.paths(last) };
  const samples = await Promise.all(
    SIDES.map((side) => httpRequest({ port: servers[side].port, path: walks[side].sample, headers: AUTH })),
  );
  const [onSample, offSample] = samples as [(typeof samples)[0], (typeof samples)[0]];
  if (onSample.status !== 200 || offSample.status !== 200) {
    throw new Error(`${walks.on.sample}: HTTP ${onSample.status} (on) / ${offSample.status} (off)`);
  }
  // The same page but for the time each event was stored.
  const masked = (body: Buffer) => body.toString('utf8').replace(/"created_at":"[^"]*"/g, '');
  if (masked(onSample.body) !== masked(offSample.body)) {
    throw new Error('the two sides answered a page differently');
  }
  const bad: Record<Side, number> = { on: 0, off: 0 };
  const drive = async (side: Side, seconds: number) => {
    const result = await load({
      port: servers[side].port,
      path: walks[side].next,
      headers: AUTH,
      connections,
      seconds,
    });
    bad[side] += result.bad;
    return { rate: result.requestsPerSecond, units: result.requests };
  };
  for (const side of SIDES) await drive(side, ctx.config.quick ? 0.1 : 1);
  const turns = await pairedRounds(rounds, servers, (side) => drive(side, roundMs / 1000));
  const failed = bad.on + bad.off > 0 ? `; failed requests: ${bad.on} on, ${bad.off} off` : '';
  return {
    rows: costRows(scenario.label, 'req/s', 'requests', turns, `${onSample.body.length} B/response${failed}`),
    lastEventId: last,
  };
}

/** Profiles a missed read scenario on fresh simulators. */
function profileRead(ctx: BenchContext): Promise<ProfileSummary[]> {
  const { readConnections: connections, readEvents } = ctx.config.controlPlane;
  const scenario = PAGING(readEvents);
  return profileBoth(ctx, scenario.label, 'json', 'requests', 1000, () =>
    readDrive(scenario, connections, ctx.config.profileMs / 1000, 1),
  );
}

async function closePair(servers: Pair): Promise<void> {
  await Promise.all(SIDES.map((side) => servers[side].close()));
}

export async function controlPlaneCost(ctx: BenchContext): Promise<MeasureBody> {
  const { streamClients, pollClients, window, readConnections, readEvents, roundMs, rounds } =
    ctx.config.controlPlane;
  const notes: string[] = [];
  // Other processes on the machine move the rates; the paired rounds and the CPU rows are the defence.
  const loadBefore = os.loadavg()[0] ?? 0;
  if (ctx.profileMode === 'never') notes.push('quick mode: no profile is taken on a miss');
  // One pair of JSON simulators for the read and both JSON delivery scenarios (a pair per
  // scenario would triple the start-ups): the read fills both stores alike, the polls then wait
  // after the last stored event.
  const rows = new Map<DeliveryScenario | 'read', Comparison[]>();
  const json = await startPair(ctx, 'json');
  try {
    const read = await runRead(ctx, json);
    rows.set('read', read.rows);
    rows.set(JSON_POLLS, await runDelivery(ctx, JSON_POLLS, json, read.lastEventId));
    rows.set(JSON_STREAM, await runDelivery(ctx, JSON_STREAM, json));
  } finally {
    await closePair(json);
  }
  const legacy = await startPair(ctx, 'legacy');
  try {
    rows.set(LEGACY_STOMP, await runDelivery(ctx, LEGACY_STOMP, legacy));
  } finally {
    await closePair(legacy);
  }
  // Profiles run after the paired rounds, one simulator at a time, on fresh processes.
  const comparisons: Comparison[] = [];
  const profiles: ProfileSummary[] = [];
  for (const key of [JSON_STREAM, JSON_POLLS, LEGACY_STOMP, 'read'] as const) {
    const scenarioRows = rows.get(key);
    if (!scenarioRows) continue;
    comparisons.push(...scenarioRows);
    const verdict = scenarioRows[0]?.verdict ?? 'N/A';
    if (!shouldProfile(ctx, verdict)) continue;
    profiles.push(...(await (key === 'read' ? profileRead(ctx) : profileDelivery(ctx, key))));
  }
  notes.push(
    `machine load average (1 min) at the start and the end: ${loadBefore.toFixed(2)} / ${(os.loadavg()[0] ?? 0).toFixed(2)} on ${os.cpus().length} cores`,
  );
  return {
    method: [
      'Two simulators of the same kind, each in its own process, identical but for CONTROL_API (one JSON pair for the three JSON rows, one legacy pair): "Ours" has the control plane on (the default: delivery journal of JOURNAL_MAX entries, the /metrics request wrapper, /_sim/* routes), the baseline has it off. No fault rule is in force on either (rules are checked, none matches).',
      `Both are driven from the harness process with the same request shapes, in ${rounds} paired rounds of ${roundMs} ms per side; which side goes first alternates each round, after a warm-up of each. Each round gives a ratio on / off; the Ratio column is the median of those ratios with their lowest and highest, Ours and the baseline the medians of their rounds.`,
      `Delivery throughput: messages per second that reached every client, with at most ${window} posted but not yet delivered to every client: transient JSON messages to ${streamClients} event-stream WebSocket clients, durable JSON messages to ${pollClients} held GET /customerapi/events polls (each re-polls from the last eventId it got; a page may carry several messages), legacy NonDurable messages to ${streamClients} STOMP subscribers. With the control plane on, each delivery is a journal entry, and each poll answer and each POST a metered request.`,
      `Read throughput: autocannon, ${readConnections} connections, GET /customerapi/events?lastEventId=..&limit=100 over ${readEvents.toLocaleString('en-US')} stored events, every page full, the same sequence of pages on both sides (both answer the same page, but for the created_at times). With the control plane on, each page is 100 journal entries and one metered request.`,
      'Below each throughput row, the CPU time (user + system) the simulator process used per 1,000 units of work over each turn, on against off (INFO): it charges the control plane with its cost directly, and moves less than the rates when the harness or other load on the machine limits them.',
      'A miss is profiled: each side rerun alone under the V8 CPU profiler with the same drive, and the difference of the two profiles per unit of work shows where the extra CPU goes.',
    ],
    comparisons,
    notes,
    profiles,
  };
}
