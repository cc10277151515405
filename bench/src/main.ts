import path from 'node:path';
import { flag, runMain, usageCheck, usageUnless } from './harness/command-line';
import { cliBuilt } from './harness/processes';
import { beforeAfterRows } from './results/write-results';
import { runBench, selectMeasures } from './run-bench';

/**
 * `npm run bench [-- --quick] [--only=fan-out,memory,per-test-cost/reset] [--results=NAME] [--profile]`
 * `[--before ROOT]`
 *
 * --only names measures (a folder of bench/src/scenarios) or scenarios (folder/file, without its
 * number). --before ROOT runs every measure against ROOT's simulators too, just before this
 * checkout's, and writes the two side by side into bench/results/raw/before-after/ (never a
 * committed file). --results=NAME writes NAME.md / NAME.json instead of latest.*: a partial
 * (--only) run would otherwise replace the committed full-run results with its few measures.
 */
runMain('bench', async () => {
  const args = process.argv.slice(2);
  const resultsName = flag(args, '--results');
  const name = resultsName === undefined || /^[a-z0-9][a-z0-9-]*$/.test(resultsName);
  usageUnless(name, `--results takes a file base name (a-z, 0-9, -), not "${resultsName}"`);
  const quick = args.includes('--quick');
  const only = flag(args, '--only')?.split(',').filter(Boolean);
  usageCheck(() => selectMeasures(only));
  const beforeArg = flag(args, '--before');
  const before = beforeArg === undefined ? undefined : path.resolve(beforeArg);
  const built = before === undefined || (beforeArg !== '' && cliBuilt(before));
  usageUnless(
    built,
    `--before takes the root of another checkout, built (npm run build there): "${beforeArg}"`,
  );
  const replaces =
    'note: this partial run replaces bench/results/latest.md; --results=NAME writes NAME.md instead';
  if (only && !quick && resultsName === undefined && beforeArg === undefined) console.warn(replaces);
  const report = await runBench({ quick, profileAll: args.includes('--profile'), only, resultsName, before });
  for (const row of before ? beforeAfterRows(report) : [])
    console.log(
      `${row.measure}: ${row.scenario}: before ${row.before} ${row.unit}, after ${row.after} ${row.unit} (after / before ${row.change}; ratio to the baseline ${row.beforeRatio} -> ${row.afterRatio})`,
    );
  for (const m of report.measures)
    for (const row of m.comparisons.filter((r) => r.verdict === 'PASS' || r.verdict === 'MISS'))
      console.log(
        `${row.verdict.padEnd(4)}  ${m.title}: ${row.scenario} (ours ${row.ours} ${row.unit}, ratio ${row.ratio})`,
      );
  const failed = report.measures.flatMap((m) => m.failures ?? []);
  for (const f of failed) console.log(`FAILED  ${f}`);
  console.log(`total ${(report.durationMs / 1000).toFixed(1)} s`);
  // A miss is a finding, not a harness failure; a scenario that produced nothing is.
  return failed.length > 0 ? 1 : 0;
});
