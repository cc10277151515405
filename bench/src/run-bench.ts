import { mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { FULL_CONFIG, QUICK_CONFIG } from './config';
import { ensurePeers } from './harness/peers';
import { cliBuilt, killAllChildren } from './harness/processes';
import { profilesIn } from './harness/profile';
import { machineInfo, renderMarkdown, writeReportFiles } from './results/write-results';
import type { BenchContext, BenchReport, Comparison, MeasureResult, ProfileSummary, Scenario } from './types';

export const REPO_ROOT = path.resolve(__dirname, '..', '..');
const SCENARIOS = path.join(__dirname, 'scenarios');

// Scenario files are found at run time, so adding one touches no file but itself.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const loadDefault = (file: string): unknown => (require(file) as { default?: unknown }).default;

/**
 * The measures in report order: each folder of bench/src/scenarios is one, its `_measure.ts`
 * giving its title and place, each other file in it one scenario, in file-name order (files whose
 * name starts with `_` hold what several of the folder share). `only` picks measures (`fan-out`)
 * or scenarios (`fan-out/legacy-stomp`: the file name without its number); unknown names throw.
 */
export function selectMeasures(only?: readonly string[]) {
  const measures = readdirSync(SCENARIOS, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map(({ name }) => {
      const meta = loadDefault(path.join(SCENARIOS, name, '_measure.ts')) as { title: string; order: number };
      const files = readdirSync(path.join(SCENARIOS, name)).filter(
        (f) => f.endsWith('.ts') && !f.startsWith('_'),
      );
      const scenarios = files.sort().map((file) => {
        const scenario = loadDefault(path.join(SCENARIOS, name, file)) as Scenario | undefined;
        if (typeof scenario?.run !== 'function')
          throw new Error(`${name}/${file}: its default export is not a scenario`);
        return { id: `${name}/${file.replace(/^\d+-/, '').replace(/\.ts$/, '')}`, scenario };
      });
      return { id: name, ...meta, scenarios };
    })
    .sort((a, b) => a.order - b.order);
  const known = measures.flatMap((m) => [m.id, ...m.scenarios.map((s) => s.id)]);
  const unknown = only?.filter((id) => !known.includes(id)) ?? [];
  if (unknown.length > 0)
    throw new Error(`unknown measure(s) or scenario(s) ${unknown}; known: ${known.join(', ')}`);
  return measures
    .map((m) => ({
      ...m,
      scenarios: m.scenarios.filter((s) => !only || only.includes(m.id) || only.includes(s.id)),
    }))
    .filter((m) => m.scenarios.length > 0);
}

/**
 * Runs a scenario that missed its target again, its simulators under the CPU profiler for their
 * whole life (never while measured), and summarises the largest profiles: where the time goes.
 */
async function profile(ctx: BenchContext, id: string, scenario: Scenario) {
  ctx.log(`  profiling ${id}: a second run, our simulators under --cpu-prof`);
  const profileDir = path.join(ctx.rawDir, 'profiles', `${id.replace('/', '-')}-${Date.now()}`);
  mkdirSync(profileDir, { recursive: true });
  return scenario.run({ ...ctx, profileDir, log: () => undefined }).then(
    () =>
      profilesIn(profileDir, `its whole process during a second run of ${id} (node --cpu-prof)`, ctx.root),
    (err: Error) => (ctx.log(`  profiling ${id} failed: ${err.message}`), []),
  );
}

type Measure = ReturnType<typeof selectMeasures>[number];

/** A measure's scenarios in order; `failures` names those that threw rather than measured (`<id>: <why>`). */
export async function runMeasure(measure: Measure, ctx: BenchContext) {
  const t0 = Date.now();
  const [method, notes, failures]: [string[], string[], string[]] = [[], [], []];
  const [comparisons, profiles]: [Comparison[], ProfileSummary[]] = [[], []];
  for (const { id, scenario } of measure.scenarios) {
    method.push(...scenario.method(ctx).filter((line) => !method.includes(line)));
    try {
      const { rows, notes: more = [] } = await scenario.run(ctx);
      comparisons.push(...rows);
      notes.push(...more);
      const missed = rows.some((row) => row.verdict === 'MISS');
      if (ctx.profileMode === 'always' || (ctx.profileMode === 'miss' && missed))
        profiles.push(...(await profile(ctx, id, scenario)));
    } catch (err) {
      ctx.log(`  ${id} failed: ${(err as Error).stack ?? String(err)}`);
      failures.push(`${id}: ${(err as Error).message}`);
      notes.push(`the scenario ${id} failed: ${(err as Error).message}`);
    }
  }
  if (ctx.profileMode === 'never' && comparisons.some((c) => c.verdict === 'MISS'))
    notes.push('quick mode: no profile is taken on a miss');
  ctx.log(`  done in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return {
    ...{ id: measure.id, title: measure.title, method, comparisons, notes, profiles },
    ...{ failures: failures.length > 0 ? failures : undefined, durationMs: Date.now() - t0 },
  };
}

export interface RunBenchOptions {
  readonly quick?: boolean;
  /** Where latest.md / latest.json go (default bench/results, or the ignored bench/results/raw/quick for --quick). */
  readonly outDir?: string;
  /** Measure or scenario ids to run (default all). */
  readonly only?: readonly string[];
  /** Base name of the files written (default latest): a partial run's own name leaves latest.* alone. */
  readonly resultsName?: string;
  /** Profile every scenario, not only those that miss. */
  readonly profileAll?: boolean;
  /** The root of another checkout, built: every measure runs against its simulators too, just before ours. */
  readonly before?: string;
  readonly log?: (message: string) => void;
}

/** Runs the measures, writes latest.md and latest.json (or resultsName.*, or before-after.*) and returns the report. */
export async function runBench(options: RunBenchOptions = {}): Promise<BenchReport> {
  const started = Date.now();
  const { quick = false, before, log = (m: string) => console.log(m) } = options;
  // Only a full run replaces the committed results; a quick run is a smoke test of the harness,
  // and a before/after run compares two builds rather than measuring this one.
  const sub = before ? ['raw', 'before-after'] : quick ? ['raw', 'quick'] : [];
  const outDir = options.outDir ?? path.join(REPO_ROOT, 'bench', 'results', ...sub);
  const rawDir = path.join(outDir, 'raw');
  mkdirSync(rawDir, { recursive: true });
  if (!cliBuilt(REPO_ROOT)) throw new Error(`${REPO_ROOT}: the simulators are not built (npm run build)`);
  const selected = selectMeasures(options.only);
  // A partial run of scenarios that use no peer installs none.
  const usePeers = selected.some((m) => m.scenarios.some((s) => s.scenario.peers));
  const unused = { peers: undefined, note: 'not used by the measures run' };
  const { peers, note: peersNote } = usePeers ? ensurePeers(REPO_ROOT, !quick) : unused;
  log(`bench (${quick ? 'quick' : 'full'}): simulators from dist; peers: ${peersNote}`);
  const config = quick ? QUICK_CONFIG : FULL_CONFIG;
  const ctx: BenchContext = {
    ...{ config, root: REPO_ROOT, simRoot: REPO_ROOT, rawDir, peers, log },
    // Two builds profiled on every miss would double a long run for figures nobody compares.
    profileMode: options.profileAll ? 'always' : quick || before ? 'never' : 'miss',
  };
  const beforeLog = (m: string) => log(`  before: ${m.trimStart()}`);
  const beforeCtx = before && { ...ctx, simRoot: path.resolve(before), log: beforeLog };
  const [measures, beforeMeasures]: [MeasureResult[], MeasureResult[]] = [[], []];
  try {
    for (const measure of selected) {
      log(`${measure.title}...`);
      // Each measure runs on both builds back to back, so a noisy stretch of the machine skews
      // one pair of figures rather than one side of every pair.
      if (beforeCtx) beforeMeasures.push(await runMeasure(measure, beforeCtx));
      measures.push(await runMeasure(measure, ctx));
    }
  } finally {
    killAllChildren();
  }
  const report: BenchReport = {
    ...{ mode: quick ? 'quick' : 'full', only: options.only, machine: machineInfo() },
    ...{ simulatorBuild: 'built packages (packages/*/dist)', peers: peersNote, measures },
    before: beforeCtx ? { root: beforeCtx.simRoot, measures: beforeMeasures } : undefined,
    durationMs: Date.now() - started,
  };
  const name = before ? 'before-after' : (options.resultsName ?? 'latest');
  const written = writeReportFiles(outDir, name, renderMarkdown(report), report);
  log(`results: ${written.markdown}, ${written.json}`);
  return report;
}
