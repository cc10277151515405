import path from 'node:path';
import { killAllChildren } from '../lib/child-server';
import { openFilesLimit } from '../soak/simulators';
import type { AbuseMode } from './config';
import { writeAbuseReport } from './report';
import { REPO_ROOT, runAbuse } from './run-abuse';

function flag(args: readonly string[], name: string): string | undefined {
  const arg = args.find((a) => a === name || a.startsWith(`${name}=`));
  if (arg === undefined) return undefined;
  return arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : '';
}

/**
 * `npm run abuse [-- --quick] [--only=1,3] [--write-results[=NAME]] [--title=TEXT] [--out=DIR]`
 *
 * Results go to bench/results/raw/abuse/ (git-ignored); only a full run with --write-results
 * writes the committed bench/results/abuse.md (or NAME.md). A quick run always exits 0: it is a
 * measurement; a full run exits 1 when a target is missed.
 */
async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const mode: AbuseMode = args.includes('--quick') ? 'quick' : 'full';
  const only = flag(args, '--only')
    ?.split(',')
    .map(Number)
    .filter((n) => Number.isInteger(n));
  const writeResults = flag(args, '--write-results');
  if (writeResults !== undefined && mode !== 'full') {
    console.error('--write-results is for the full run only: quick figures are not the committed ones');
    process.exit(2);
  }
  const limit = openFilesLimit();
  if (limit !== undefined && limit < 4096) {
    console.error(`open-file limit ${limit} is below the 4096 the run needs: raise it (ulimit -n 8192)`);
    process.exit(2);
  }
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      killAllChildren();
      process.exit(130);
    });
  }
  try {
    const report = await runAbuse({ mode, ...(only && only.length > 0 && { only }) });
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
      for (const f of report.failures) console.log(`  FAIL  ${f}`);
    }
    console.log(`\nresults: ${files.markdown}, ${files.json} (${(report.durationMs / 1000).toFixed(1)} s)`);
    process.exit(mode === 'full' && !report.pass ? 1 : 0);
  } catch (err) {
    console.error(`abuse run failed: ${(err as Error).stack ?? String(err)}`);
    killAllChildren();
    process.exit(2);
  }
}

void main();
