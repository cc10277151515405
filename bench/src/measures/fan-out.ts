import { shouldProfile, type BenchContext } from '../context';
import type { ChildServer } from '../lib/child-server';
import { compare } from '../lib/compare';
import { FanOutClients, type FanOutTarget } from '../lib/fan-out-run';
import { JSON_TOKEN, LEGACY_TOKEN } from '../lib/payloads';
import { postBare, postJson, postLegacy } from '../lib/posts';
import { profileSim } from '../lib/profiled';
import { startBaseline, startSim, type SimKind } from '../lib/subjects';
import { connectBare, connectEventStream, connectStomp } from '../lib/ws-clients';
import type { Comparison, MeasureResult, ProfileSummary } from '../types';

interface Scenario {
  readonly label: string;
  readonly kind: SimKind;
  ours(server: ChildServer, clients: number): FanOutTarget;
}

const JSON_STREAM: Scenario = {
  label: 'JSON: transient /api/message -> WebSocket clients',
  kind: 'json',
  ours: (server, clients) => ({
    name: 'json event-stream',
    clients,
    connect: () => connectEventStream(server.port, JSON_TOKEN),
    post: (seq) => postJson(server.port, 'transient', seq),
  }),
};

const LEGACY_STOMP: Scenario = {
  label: 'legacy: NonDurable -> STOMP subscribers',
  kind: 'legacy',
  ours: (server, clients) => ({
    name: 'legacy STOMP',
    clients,
    connect: () => connectStomp(server.port, LEGACY_TOKEN),
    isDelivery: (data) => data.subarray(0, 7).toString('latin1') === 'MESSAGE',
    post: (seq) => postLegacy(server.port, 'NonDurable', seq),
  }),
};

function bareTarget(server: ChildServer, clients: number, body: Buffer): FanOutTarget {
  return {
    name: 'bare ws broadcast',
    clients,
    connect: () => connectBare(server.port),
    post: () => postBare(server.port, body),
  };
}

async function runScenario(
  ctx: BenchContext,
  scenario: Scenario,
): Promise<{ row: Comparison; profile?: ProfileSummary }> {
  const { clients, roundMs, rounds, window } = ctx.config.fanOut;
  ctx.log(`  ${scenario.label}: ${clients} clients, ${rounds} rounds of ${roundMs} ms per side`);
  const [sim, broadcast] = await Promise.all([
    startSim(ctx, scenario.kind),
    startBaseline(ctx, 'bare-broadcast'),
  ]);
  const opened: FanOutClients[] = [];
  let row: Comparison;
  const totals = new Map<FanOutClients, { messages: number; seconds: number }>();
  try {
    const ours = new FanOutClients(scenario.ours(sim.server, clients));
    opened.push(ours);
    await ours.connect();
    await ours.round(Math.min(300, roundMs), window);
    if (!ours.sample) throw new Error(`${scenario.label}: no frame received`);
    const bare = new FanOutClients(bareTarget(broadcast, clients, ours.sample));
    opened.push(bare);
    await bare.connect();
    await bare.round(Math.min(300, roundMs), window);
    for (let r = 0; r < rounds; r++) {
      for (const side of r % 2 === 0 ? [ours, bare] : [bare, ours]) {
        const result = await side.round(roundMs, window);
        const total = totals.get(side) ?? { messages: 0, seconds: 0 };
        total.messages += result.messagesPerSecond * (roundMs / 1000);
        total.seconds += roundMs / 1000;
        totals.set(side, total);
      }
    }
    const rate = (side: FanOutClients) => {
      const t = totals.get(side);
      return t ? t.messages / t.seconds : null;
    };
    const oursRate = rate(ours);
    const bareRate = rate(bare);
    row = compare({
      scenario: `${scenario.label} (${clients} clients)`,
      unit: 'msg/s',
      ours: oursRate,
      bare: bareRate,
      bareName: 'bare ws broadcast',
      better: 'higher',
      bound: 0.5,
      target: '>= 50% of bare',
      note: `each message reaches all ${clients} clients: ${Math.round((oursRate ?? 0) * clients).toLocaleString('en-US')} / ${Math.round((bareRate ?? 0) * clients).toLocaleString('en-US')} deliveries/s (ours / bare); frame ${ours.sample.length} bytes`,
    });
  } finally {
    for (const side of opened) side.close();
    await Promise.all([sim.server.close(), broadcast.close()]);
  }
  if (!shouldProfile(ctx, row.verdict)) return { row };
  let side: FanOutClients | undefined;
  const profile = await profileSim(
    ctx,
    scenario.label,
    scenario.kind,
    {},
    {
      setup: async (server) => {
        side = new FanOutClients(scenario.ours(server, clients));
        await side.connect();
      },
      run: async () => {
        await side?.round(ctx.config.profileMs, window);
      },
      teardown: () => side?.close(),
    },
  );
  return { row, profile };
}

export async function fanOut(ctx: BenchContext): Promise<MeasureResult> {
  const started = Date.now();
  const { clients, roundMs, rounds, window } = ctx.config.fanOut;
  const scenarios: Scenario[] = [JSON_STREAM];
  const notes: string[] = [];
  if (ctx.legacyMissing === undefined) scenarios.push(LEGACY_STOMP);
  else notes.push(`legacy STOMP fan-out not measured: ${ctx.legacyMissing}`);
  if (ctx.profileMode === 'never') notes.push('quick mode: no profile is taken on a miss');
  const comparisons: Comparison[] = [];
  const profiles: ProfileSummary[] = [];
  for (const scenario of scenarios) {
    const { row, profile } = await runScenario(ctx, scenario);
    comparisons.push(row);
    if (profile) profiles.push(profile);
  }
  return {
    id: 'fan-out',
    title: 'Fan-out',
    method: [
      `${clients} WebSocket clients per side (STOMP: ${clients} subscribers); transient messages are posted with at most ${window} not yet delivered to every client, for ${rounds} interleaved rounds of ${roundMs} ms per side.`,
      'Figure: messages per second that reached every client (last client included), counted by the clients.',
      'Baseline: a bare ws server broadcasting the posted bytes; it is posted exactly the frame our clients received, so both sides send the same bytes.',
    ],
    comparisons,
    notes,
    profiles,
    durationMs: Date.now() - started,
  };
}
