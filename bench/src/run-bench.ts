import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { FULL_CONFIG, QUICK_CONFIG } from './config';
import type { BenchContext } from './context';
import { killAllChildren } from './lib/child-server';
import { machineInfo } from './machine';
import { controlPlaneCost } from './measures/control-plane-cost';
import { deliveryLatency } from './measures/delivery-latency';
import { fanOut } from './measures/fan-out';
import { imageSizes } from './measures/image-sizes';
import { memory } from './measures/memory';
import { readThroughput } from './measures/read-throughput';
import { sandboxCreate } from './measures/sandbox-create';
import { startUp } from './measures/start-up';
import { ensurePeers } from './peer-tools/peer-install';
import { writeResults } from './results/write-results';
import type { BenchReport, MeasureResult } from './types';

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
  /** Install the peers when missing (default: in full mode only). */
  readonly installPeers?: boolean;
  /** Simulators from their build or from source (default: the build when present). */
  readonly source?: 'dist' | 'src';
  /** Profile our side of every scenario, not only of those that miss. */
  readonly profileAll?: boolean;
  readonly log?: (message: string) => void;
}

type Measure = (ctx: BenchContext) => Promise<MeasureResult>;

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
];

export const REPO_ROOT = path.resolve(__dirname, '..', '..');

function built(root: string, pkg: string): boolean {
  return existsSync(path.join(root, 'packages', pkg, 'dist', 'index.js'));
}

function legacyMissing(root: string, source: 'dist' | 'src'): string | undefined {
  if (!existsSync(path.join(root, 'packages', 'legacy-sim', 'src', 'index.ts'))) {
    return 'packages/legacy-sim has no index.ts yet';
  }
  if (source === 'dist' && !built(root, 'legacy-sim')) return 'packages/legacy-sim is not built';
  return undefined;
}

/** Runs the measures, writes latest.md and latest.json (or resultsName.*) into outDir, and returns the report. */
export async function runBench(options: RunBenchOptions = {}): Promise<BenchReport> {
  const started = Date.now();
  const quick = options.quick ?? false;
  const root = REPO_ROOT;
  // Only a full run replaces the committed results; a quick run is a smoke test of the harness.
  const outDir = options.outDir ?? path.join(root, 'bench', 'results', ...(quick ? ['raw', 'quick'] : []));
  const rawDir = path.join(outDir, 'raw');
  mkdirSync(rawDir, { recursive: true });
  const log = options.log ?? ((m: string) => console.log(m));
  const source =
    options.source ?? (built(root, 'core') && built(root, 'json-sim') ? ('dist' as const) : ('src' as const));
  const selected = MEASURES.filter((m) => !options.only || options.only.includes(m.id));
  // A partial run of measures that use no peer installs none.
  const needPeers = selected.some((m) => m.peers);
  const { peers, note: peersNote } = needPeers
    ? ensurePeers(root, options.installPeers ?? !quick)
    : { peers: undefined, note: 'not used by the measures run' };
  log(`bench (${quick ? 'quick' : 'full'}): simulators from ${source}; peers: ${peersNote}`);
  const ctx: BenchContext = {
    config: quick ? QUICK_CONFIG : FULL_CONFIG,
    root,
    outDir,
    rawDir,
    simSource: source,
    peers,
    legacyMissing: legacyMissing(root, source),
    profileMode: options.profileAll ? 'always' : quick ? 'never' : 'miss',
    log,
  };
  const measures: MeasureResult[] = [];
  try {
    for (const measure of selected) {
      log(`${measure.title}...`);
      const t0 = Date.now();
      try {
        measures.push(await measure.run(ctx));
      } catch (err) {
        log(`  failed: ${(err as Error).stack ?? String(err)}`);
        measures.push({
          id: measure.id,
          title: measure.title,
          method: [],
          comparisons: [],
          notes: [`the measure failed: ${(err as Error).message}`],
          profiles: [],
          durationMs: Date.now() - t0,
        });
      }
      log(`  done in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    }
  } finally {
    killAllChildren();
  }
  const report: BenchReport = {
    mode: quick ? 'quick' : 'full',
    ...(options.only && { only: selected.map((m) => m.id) }),
    machine: machineInfo(),
    simulatorBuild:
      source === 'dist'
        ? 'built packages (packages/*/dist)'
        : 'sources through tsx (packages/*/src; no build found)',
    peers: peersNote,
    measures,
    durationMs: Date.now() - started,
  };
  const written = writeResults(outDir, report, options.resultsName);
  log(`results: ${written.markdown}, ${written.json}`);
  return report;
}
