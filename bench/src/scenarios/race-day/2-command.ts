import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { absoluteRow } from '../../harness/rows';
import type { Scenario } from '../../types';

/** `racedata-sim race-day --out DIR ...` of the measured checkout: the ms until it exited. */
async function command(root: string, args: readonly string[]): Promise<number> {
  const started = performance.now();
  const cli = path.join(root, 'packages', 'cli', 'bin', 'racedata-sim.js');
  await promisify(execFile)(process.execPath, [cli, 'race-day', ...args], { timeout: 300_000 });
  return performance.now() - started;
}

export default {
  method: () => [
    "The command: `racedata-sim race-day --out DIR` in its own process, until it exits, writing both simulators' files and plan.json.",
  ],
  async run(ctx) {
    // A day is 20-30 MB of files per simulator.
    const out = mkdtempSync(path.join(ctx.rawDir, 'race-day-'));
    try {
      const one = ['--out', path.join(out, 'one'), '--date', '2026-05-13', '--meetings', 'trot:2,gallop:1'];
      const scenario = 'racedata-sim race-day --out DIR, one day (process, files included)';
      const rows = [absoluteRow({ scenario, unit: 'ms', ours: await command(ctx.simRoot, one) })];
      if (!ctx.config.quick) {
        const month = ['--out', path.join(out, 'month'), '--date', '2026-05-01', '--days', '31'];
        const ours = await command(ctx.simRoot, month);
        const scenario = 'racedata-sim race-day --out DIR --days 31 (process, files included)';
        rows.push(absoluteRow({ scenario, unit: 'ms', ours }));
      }
      return { rows };
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  },
} satisfies Scenario;
