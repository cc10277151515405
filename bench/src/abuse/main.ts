import path from 'node:path';
import { flag, numberFlag, runMain, usageError } from '../harness/command-line';
import { requireOpenFiles } from '../harness/proc';
import { writeAbuseReport } from './report';
import { PHASES, REPO_ROOT, runAbuse } from './run-abuse';
import type { AbuseConfig, AbuseMode } from './config';

/** --messages, --pollers, --honest, --seed: the listen storm at other sizes than the mode's. */
function stormSizes(args: readonly string[]): Partial<AbuseConfig['listenStorm']> {
  const names = { messages: 'messages', pollers: 'hangUpPollers', honest: 'honestPollers', seed: 'seed' };
  return Object.fromEntries(
    Object.entries(names)
      .map(([option, key]) => [key, numberFlag(args, `--${option}`, 0, 1_000_000)])
      .filter(([, value]) => value !== undefined),
  ) as Partial<AbuseConfig['listenStorm']>;
}

/**
 * `npm run abuse [-- --quick] [--only=1,listen-storm] [--write-results[=NAME]] [--title=TEXT] [--out=DIR]`
 * `[--messages=N] [--pollers=N] [--honest=N] [--seed=N]` (the listen storm's sizes)
 *
 * Results go to bench/results/raw/abuse/ (git-ignored); only a full run with --write-results
 * writes the committed bench/results/abuse.md (or NAME.md). A quick run always exits 0: it is a
 * measurement; a full run exits 1 when a target is missed.
 */
async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const mode: AbuseMode = args.includes('--quick') ? 'quick' : 'full';
  const only = flag(args, '--only')
    ?.split(',')
    .filter(Boolean)
    .map((wanted) => PHASES.find((p) => String(p.id) === wanted || p.name === wanted)?.id ?? wanted);
  const unknown = only?.filter((id) => typeof id === 'string') ?? [];
  if (unknown.length > 0) {
    console.error(
      `unknown phase(s) ${unknown.join(', ')}; known: ${PHASES.map((p) => `${p.id} ${p.name}`).join(', ')}`,
    );
    process.exit(2);
  }
  const listenStorm = stormSizes(args);
  const writeResults = flag(args, '--write-results');
  if (writeResults !== undefined && mode !== 'full') {
    usageError('--write-results is for the full run only: quick figures are not the committed ones');
  }
  try {
    requireOpenFiles(4096);
  } catch (err) {
    usageError((err as Error).message);
  }
  const report = await runAbuse({
    mode,
    listenStorm,
    ...(only && only.length > 0 && { only: only as number[] }),
  });
  const committed = writeResults !== undefined;
  const dir = committed
    ? path.join(REPO_ROOT, 'bench', 'results')
    : (flag(args, '--out') ?? path.join(REPO_ROOT, 'bench', 'results', 'raw', 'abuse'));
  const name = committed
    ? writeResults || 'abuse'
    : `abuse-${mode}-${report.machine.date.replace(/[:.]/g, '-')}`;
  const files = writeAbuseReport(dir, name, report, flag(args, '--title') || undefined);
  console.log('');
  if (report.failures.length === 0) console.log('every target met');
  else {
    console.log(`${report.failures.length} targets missed:`);
    for (const f of report.failures) console.log(`  MISS  ${f}`);
  }
  console.log(`\nresults: ${files.markdown}, ${files.json} (${(report.durationMs / 1000).toFixed(1)} s)`);
  return mode === 'full' && !report.pass ? 1 : 0;
}

runMain('abuse run', main);
