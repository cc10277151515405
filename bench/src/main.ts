import { killAllChildren } from './lib/child-server';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { cliBuilt } from './lib/simulator-process';
import { beforeAfterRows } from './results/before-after';
import { MEASURES, REPO_ROOT, runBench } from './run-bench';
import { writeResults } from './results/write-results';
import type { BenchReport } from './types';

/** `--before ROOT` or `--before=ROOT`: another checkout, built, to measure beside this one. */
function beforeRoot(args: readonly string[]): string | undefined {
  const at = args.findIndex((a) => a === '--before' || a.startsWith('--before='));
  if (at < 0) return undefined;
  const arg = args[at] as string;
  const root = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : args[at + 1];
  if (!root || root.startsWith('--') || !cliBuilt(path.resolve(root))) {
    console.error(
      `--before takes the root of another checkout, built (npm run build there): "${root ?? ''}"`,
    );
    process.exit(2);
  }
  return path.resolve(root);
}

/**
 * `npm run bench [-- --quick] [--only=fan-out,memory] [--results=NAME] [--profile] [--render]`
 * `[--before ROOT]`
 *
 * --before ROOT runs every measure against ROOT's simulators too, just before this checkout's,
 * and writes the two side by side into bench/results/raw/before-after/ (never a committed file).
 *
 * --results=NAME writes NAME.md / NAME.json instead of latest.*: a partial (--only) run would
 * otherwise replace the committed full-run results with its few measures.
 */
async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const resultsArg = args.find((a) => a.startsWith('--results='));
  const resultsName = resultsArg?.slice('--results='.length);
  if (resultsName !== undefined && !/^[a-z0-9][a-z0-9-]*$/.test(resultsName)) {
    console.error(`--results takes a file base name (a-z, 0-9, -), not "${resultsName}"`);
    process.exit(2);
  }
  if (args.includes('--render')) {
    // Re-renders latest.md (or NAME.md) from its .json (after a change to the report layout).
    const dir = path.join(REPO_ROOT, 'bench', 'results');
    const name = resultsName ?? 'latest';
    const report = JSON.parse(readFileSync(path.join(dir, `${name}.json`), 'utf8')) as BenchReport;
    writeResults(dir, report, name);
    return;
  }
  const quick = args.includes('--quick');
  const onlyArg = args.find((a) => a.startsWith('--only='));
  const only = onlyArg?.slice('--only='.length).split(',').filter(Boolean);
  const unknown = only?.filter((id) => !MEASURES.some((m) => m.id === id)) ?? [];
  if (unknown.length > 0) {
    console.error(`unknown measure(s) ${unknown.join(', ')}; known: ${MEASURES.map((m) => m.id).join(', ')}`);
    process.exit(2);
  }
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      killAllChildren();
      process.exit(130);
    });
  }
  if (only && !quick && resultsName === undefined && !args.some((a) => a.startsWith('--before'))) {
    console.warn(
      'note: this partial run replaces bench/results/latest.md; --results=NAME writes NAME.md instead',
    );
  }
  const profileAll = args.includes('--profile');
  const before = beforeRoot(args);
  const report = await runBench({
    quick,
    profileAll,
    ...(only && { only }),
    ...(resultsName && { resultsName }),
    ...(before && { before }),
  });
  for (const row of before ? beforeAfterRows(report) : []) {
    console.log(
      `${row.measure}: ${row.scenario}: before ${row.before} ${row.unit}, after ${row.after} ${row.unit} (after / before ${row.change}; ratio to the baseline ${row.beforeRatio} -> ${row.afterRatio})`,
    );
  }
  const rows = report.measures.flatMap((m) => m.comparisons.map((c) => ({ measure: m.title, ...c })));
  for (const row of rows.filter((r) => r.verdict === 'PASS' || r.verdict === 'MISS')) {
    console.log(
      `${row.verdict.padEnd(4)}  ${row.measure}: ${row.scenario} (ours ${row.ours} ${row.unit}, ratio ${row.ratio})`,
    );
  }
  const failed = report.measures.filter((m) => m.comparisons.length === 0 && m.id !== 'image-sizes');
  console.log(`total ${(report.durationMs / 1000).toFixed(1)} s`);
  // A miss is a finding, not a harness failure; a measure that produced nothing is.
  process.exit(failed.length > 0 ? 1 : 0);
}

void main();
