import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { FULL_CONFIG, QUICK_CONFIG } from './config';
import type { BenchContext } from './context';
import { killAllChildren } from './lib/child-server';
import { cliBuilt } from './lib/simulator-process';
import { machineInfo } from './machine';
import { controlPlaneCost } from './measures/control-plane-cost';
import { deliveryLatency } from './measures/delivery-latency';
import { fanOut } from './measures/fan-out';
import { imageSizes } from './measures/image-sizes';
import { memory } from './measures/memory';
import { raceDay } from './measures/race-day';
import { readThroughput } from './measures/read-throughput';
import { sandboxCreate } from './measures/sandbox-create';
import { startUp } from './measures/start-up';
import { ensurePeers } from './peer-tools/peer-install';
import { writeResults } from './results/write-results';
import type { BenchReport, MeasureBody, MeasureResult } from './types';

export interface RunBenchOptions {
  readonly quick?: boolean;
  /** Where latest.md / latest.json go (default bench/results, or the ignored bench/results/raw/quick for --quick). */
  readonly outDir?: string;
  /** Measure ids to run (default all). */
  readonly only?: readonly string[];
  /**
   * Base name of the files written into outDir (default latest): a partial run given its own
   * name (e.g. control-plane-cost) leaves the committed latest.md / latest.json alone.
   */
  readonly resultsName?: string;
  /** Profile our side of every scenario, not only of those that miss. */
  readonly profileAll?: boolean;
  /**
   * The root of another checkout, built: every measure runs against its simulators too, just
   * before it runs against ours, and the results are the two side by side (before-after.md).
   */
  readonly before?: string;
  readonly log?: (message: string) => void;
}

type Measure = (ctx: BenchContext) => Promise<MeasureBody>;

/** `peers`: the measure compares against the peer mock servers (installed for it in a full run). */
export const MEASURES: ReadonlyArray<{ id: string; title: string; run: Measure; peers?: true }> = [
  { id: 'delivery-latency', title: 'Delivery latency', run: deliveryLatency },
  { id: 'fan-out', title: 'Fan-out', run: fanOut },
  { id: 'read-throughput', title: 'Read throughput', run: readThroughput, peers: true },
  { id: 'control-plane-cost', title: 'Control-plane cost', run: controlPlaneCost },
  { id: 'start-up', title: 'Start-up', run: startUp, peers: true },
  { id: 'memory', title: 'Memory', run: memory },
  { id: 'sandbox-create', title: 'Sandbox creation', run: sandboxCreate },
  { id: 'image-sizes', title: 'Image sizes', run: imageSizes },
  { id: 'race-day', title: 'Race days', run: raceDay },
];

export const REPO_ROOT = path.resolve(__dirname, '..', '..');

async function runMeasure(measure: (typeof MEASURES)[number], ctx: BenchContext): Promise<MeasureResult> {
  const t0 = Date.now();
  const body = await measure.run(ctx).catch((err: Error) => {
    ctx.log(`  failed: ${err.stack ?? String(err)}`);
    return { method: [], comparisons: [], notes: [`the measure failed: ${err.message}`], profiles: [] };
  });
  ctx.log(`  done in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return { id: measure.id, title: measure.title, ...body, durationMs: Date.now() - t0 };
}

/**
 * Runs the measures, writes latest.md and latest.json (or resultsName.*, or before-after.* with
 * `before`) into outDir, and returns the report.
 */
export async function runBench(options: RunBenchOptions = {}): Promise<BenchReport> {
  const started = Date.now();
  const quick = options.quick ?? false;
  const root = REPO_ROOT;
  // Only a full run replaces the committed results; a quick run is a smoke test of the harness,
  // and a before/after run compares two builds rather than measuring this one.
  const outDir =
    options.outDir ??
    path.join(
      root,
      'bench',
      'results',
      ...(options.before ? ['raw', 'before-after'] : quick ? ['raw', 'quick'] : []),
    );
  const rawDir = path.join(outDir, 'raw');
  mkdirSync(rawDir, { recursive: true });
  const log = options.log ?? ((m: string) => console.log(m));
  if (!cliBuilt(root)) throw new Error(`${root}: the simulators are not built (npm run build)`);
  const selected = MEASURES.filter((m) => !options.only || options.only.includes(m.id));
  // A partial run of measures that use no peer installs none.
  const needPeers = selected.some((m) => m.peers);
  const { peers, note: peersNote } = needPeers
    ? ensurePeers(root, !quick)
    : { peers: undefined, note: 'not used by the measures run' };
  log(`bench (${quick ? 'quick' : 'full'}): simulators from dist; peers: ${peersNote}`);
  const ctx: BenchContext = {
    config: quick ? QUICK_CONFIG : FULL_CONFIG,
    root,
    simRoot: root,
    outDir,
    rawDir,
    peers,
    // Two builds profiled on every miss would double a long run for figures nobody compares.
    profileMode: options.profileAll ? 'always' : quick || options.before ? 'never' : 'miss',
    log,
  };
  const beforeCtx: BenchContext | undefined = options.before
    ? {
        ...ctx,
        simRoot: path.resolve(options.before),
        log: (m) => log(`  before: ${m.trimStart()}`),
      }
    : undefined;
  const measures: MeasureResult[] = [];
  const before: MeasureResult[] = [];
  try {
    for (const measure of selected) {
      log(`${measure.title}...`);
      // Each measure runs on both builds back to back, so a noisy stretch of the machine skews
      // one pair of figures rather than one side of every pair.
      if (beforeCtx) before.push(await runMeasure(measure, beforeCtx));
      measures.push(await runMeasure(measure, ctx));
    }
  } finally {
    killAllChildren();
  }
  const report: BenchReport = {
    mode: quick ? 'quick' : 'full',
    ...(options.only && { only: selected.map((m) => m.id) }),
    machine: machineInfo(),
    simulatorBuild: 'built packages (packages/*/dist)',
    peers: peersNote,
    measures,
    ...(beforeCtx && { before: { root: beforeCtx.simRoot, measures: before } }),
    durationMs: Date.now() - started,
  };
  const written = writeResults(outDir, report, options.before ? 'before-after' : options.resultsName);
  log(`results: ${written.markdown}, ${written.json}`);
  return report;
}
