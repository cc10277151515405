import { flag, runMain, usageError } from './lib/command-line';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { cliBuilt } from './lib/simulator-process';
import { beforeAfterRows } from './results/before-after';
import { MEASURES, REPO_ROOT, runBench } from './run-bench';
import { writeResults } from './results/write-results';
import type { BenchReport } from './types';

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
async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const resultsName = flag(args, '--results');
  if (resultsName !== undefined && !/^[a-z0-9][a-z0-9-]*$/.test(resultsName)) {
    usageError(`--results takes a file base name (a-z, 0-9, -), not "${resultsName}"`);
  }
  if (args.includes('--render')) {
    // Re-renders latest.md (or NAME.md) from its .json (after a change to the report layout).
    const dir = path.join(REPO_ROOT, 'bench', 'results');
    const name = resultsName ?? 'latest';
    const report = JSON.parse(readFileSync(path.join(dir, `${name}.json`), 'utf8')) as BenchReport;
    writeResults(dir, report, name);
    return 0;
  }
  const quick = args.includes('--quick');
  const only = flag(args, '--only')?.split(',').filter(Boolean);
  const unknown = only?.filter((id) => !MEASURES.some((m) => m.id === id)) ?? [];
  if (unknown.length > 0) {
    usageError(`unknown measure(s) ${unknown.join(', ')}; known: ${MEASURES.map((m) => m.id).join(', ')}`);
  }
  const beforeArg = flag(args, '--before');
  const before = beforeArg === undefined ? undefined : path.resolve(beforeArg);
  if (before !== undefined && (beforeArg === '' || !cliBuilt(before))) {
    usageError(`--before takes the root of another checkout, built (npm run build there): "${beforeArg}"`);
  }
  if (only && !quick && resultsName === undefined && beforeArg === undefined) {
    console.warn(
      'note: this partial run replaces bench/results/latest.md; --results=NAME writes NAME.md instead',
    );
  }
  const profileAll = args.includes('--profile');
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
  return failed.length > 0 ? 1 : 0;
}

runMain('bench', main);
