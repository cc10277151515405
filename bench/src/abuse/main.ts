import path from 'node:path';
import { flag, numberFlag, runMain, usageCheck, usageUnless } from '../harness/command-line';
import { requireOpenFiles } from '../harness/processes';
import { writeReportFiles } from '../results/write-results';
import { abuseMarkdown, PHASES, REPO_ROOT, runAbuse } from './run-abuse';

/** --messages, --pollers, --honest, --seed: the listen storm at other sizes than the mode's. */
const STORM = { messages: 'messages', pollers: 'hangUpPollers', honest: 'honestPollers', seed: 'seed' };

/**
 * `npm run abuse [-- --quick] [--only=1,listen-storm] [--write-results[=NAME]] [--title=TEXT]`
 * `[--messages=N] [--pollers=N] [--honest=N] [--seed=N]` (the listen storm's sizes)
 *
 * Results go to bench/results/raw/abuse/ (git-ignored); only a full run with --write-results
 * writes the committed bench/results/abuse.md (or NAME.md). A quick run always exits 0: it is a
 * measurement; a full run exits 1 when a target is missed.
 */
runMain('abuse run', async () => {
  const args = process.argv.slice(2);
  const mode = args.includes('--quick') ? 'quick' : 'full';
  const names = flag(args, '--only')?.split(',').filter(Boolean) ?? [];
  const only = names.map((n) => PHASES.find((p) => String(p.id) === n || p.name === n)?.id ?? n);
  const known = PHASES.map((p) => `${p.id} ${p.name}`).join(', ');
  usageUnless(
    only.every((id) => typeof id === 'number'),
    `unknown phase(s) in ${names}; known: ${known}`,
  );
  const sizes = Object.entries(STORM).map(([option, key]) => [key, numberFlag(args, `--${option}`, 0, 1e6)]);
  const written = flag(args, '--write-results');
  const committed = 'the full run only: quick figures are not the committed ones';
  usageUnless(written === undefined || mode === 'full', `--write-results is for ${committed}`);
  usageCheck(() => requireOpenFiles(4096));
  const report = await runAbuse({
    ...{ mode, only: only.length > 0 ? (only as number[]) : undefined },
    listenStorm: Object.fromEntries(sizes.filter(([, value]) => value !== undefined)),
  });
  const results = path.join(REPO_ROOT, 'bench', 'results');
  const [dir, name] =
    written !== undefined
      ? [results, written || 'abuse']
      : [path.join(results, 'raw', 'abuse'), `abuse-${mode}-${report.machine.date.replace(/[:.]/g, '-')}`];
  const markdown = abuseMarkdown(report, flag(args, '--title') || undefined);
  const files = writeReportFiles(dir, name, markdown, report);
  const missed = report.failures.length;
  console.log(missed === 0 ? '\nevery target met' : `\n${missed} targets missed:`);
  for (const f of report.failures) console.log(`  MISS  ${f}`);
  console.log(`\nresults: ${files.markdown}, ${files.json} (${(report.durationMs / 1000).toFixed(1)} s)`);
  return mode === 'full' && !report.pass ? 1 : 0;
});
