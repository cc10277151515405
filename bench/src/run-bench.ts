import { mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { FULL_CONFIG, QUICK_CONFIG } from './config';
import { ensurePeers } from './harness/peers';
import { cliBuilt, killAllChildren } from './harness/processes';
import { machineInfo } from './machine';
import { writeResults } from './results/write-results';
import type { BenchContext, BenchReport, Comparison, MeasureResult, ProfileSummary, Scenario } from './types';

export const REPO_ROOT = path.resolve(__dirname, '..', '..');
const SCENARIOS = path.join(__dirname, 'scenarios');

export interface Measure {
  readonly id: string;
  readonly title: string;
  readonly scenarios: ReadonlyArray<{ readonly id: string; readonly scenario: Scenario }>;
}

// Scenario files are found at run time, so adding one touches no file but itself.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const loadDefault = (file: string): unknown => (require(file) as { default?: unknown }).default;

/**
 * The measures in report order: each folder of bench/src/scenarios is one, its `_measure.ts`
 * giving its title and place, and each other file in it one scenario, in file-name order (files
 * whose name starts with `_` hold what several scenarios of the folder share).
 */
export function loadMeasures(): Measure[] {
  const folders = readdirSync(SCENARIOS, { withFileTypes: true }).filter((d) => d.isDirectory());
  const measures = folders.map((folder) => {
    const dir = path.join(SCENARIOS, folder.name);
    const meta = loadDefault(path.join(dir, '_measure.ts')) as { title: string; order: number };
    const files = readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.startsWith('_'));
    const scenarios = files.sort().map((file) => {
      const scenario = loadDefault(path.join(dir, file)) as Scenario | undefined;
      if (typeof scenario?.run !== 'function')
        throw new Error(`${dir}/${file}: its default export is not a scenario`);
      return { id: `${folder.name}/${file.replace(/^\d+-/, '').replace(/\.ts$/, '')}`, scenario };
    });
    return { id: folder.name, title: meta.title, order: meta.order, scenarios };
  });
  return measures.sort((a, b) => a.order - b.order);
}

export interface RunBenchOptions {
  readonly quick?: boolean;
  /** Where latest.md / latest.json go (default bench/results, or the ignored bench/results/raw/quick for --quick). */
  readonly outDir?: string;
  /** Measure ids (`fan-out`) or scenario ids (`fan-out/legacy-stomp`) to run (default all). */
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

/** The measures and scenarios `only` names (all when undefined); unknown names are an error. */
export function selectMeasures(only?: readonly string[]): Measure[] {
  const all = loadMeasures();
  const known = all.flatMap((m) => [m.id, ...m.scenarios.map((s) => s.id)]);
  const unknown = only?.filter((id) => !known.includes(id)) ?? [];
  if (unknown.length > 0)
    throw new Error(`unknown measure(s) or scenario(s) ${unknown.join(', ')}; known: ${known.join(', ')}`);
  const wanted = (m: Measure, id: string) => !only || only.includes(m.id) || only.includes(id);
  return all
    .map((m) => ({ ...m, scenarios: m.scenarios.filter((s) => wanted(m, s.id)) }))
    .filter((m) => m.scenarios.length > 0);
}

async function runMeasure(measure: Measure, ctx: BenchContext): Promise<MeasureResult> {
  const t0 = Date.now();
  const method: string[] = [];
  const comparisons: Comparison[] = [];
  const notes: string[] = [];
  const profiles: ProfileSummary[] = [];
  const failures: string[] = [];
  for (const { id, scenario } of measure.scenarios) {
    for (const line of scenario.method(ctx)) if (!method.includes(line)) method.push(line);
    try {
      const result = await scenario.run(ctx);
      comparisons.push(...result.rows);
      notes.push(...(result.notes ?? []));
      profiles.push(...(result.profiles ?? []));
    } catch (err) {
      ctx.log(`  ${id} failed: ${(err as Error).stack ?? String(err)}`);
      failures.push(`${id}: ${(err as Error).message}`);
      notes.push(`the scenario ${id} failed: ${(err as Error).message}`);
    }
  }
  if (ctx.profileMode === 'never' && comparisons.some((c) => c.verdict === 'MISS')) {
    notes.push('quick mode: no profile is taken on a miss');
  }
  ctx.log(`  done in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const result = { id: measure.id, title: measure.title, method, comparisons, notes, profiles };
  return { ...result, ...(failures.length > 0 && { failures }), durationMs: Date.now() - t0 };
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
  const sub = options.before ? ['raw', 'before-after'] : quick ? ['raw', 'quick'] : [];
  const outDir = options.outDir ?? path.join(root, 'bench', 'results', ...sub);
  const rawDir = path.join(outDir, 'raw');
  mkdirSync(rawDir, { recursive: true });
  const log = options.log ?? ((m: string) => console.log(m));
  if (!cliBuilt(root)) throw new Error(`${root}: the simulators are not built (npm run build)`);
  const selected = selectMeasures(options.only);
  // A partial run of scenarios that use no peer installs none.
  const needPeers = selected.some((m) => m.scenarios.some((s) => s.scenario.peers));
  const { peers, note: peersNote } = needPeers
    ? ensurePeers(root, !quick)
    : { note: 'not used by the measures run' };
  log(`bench (${quick ? 'quick' : 'full'}): simulators from dist; peers: ${peersNote}`);
  const ctx: BenchContext = {
    config: quick ? QUICK_CONFIG : FULL_CONFIG,
    root,
    simRoot: root,
    rawDir,
    peers,
    // Two builds profiled on every miss would double a long run for figures nobody compares.
    profileMode: options.profileAll ? 'always' : quick || options.before ? 'never' : 'miss',
    log,
  };
  const beforeCtx: BenchContext | undefined = options.before
    ? { ...ctx, simRoot: path.resolve(options.before), log: (m) => log(`  before: ${m.trimStart()}`) }
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
    ...(options.only && { only: options.only }),
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
