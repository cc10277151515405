/**
 * Race days (docs/race-days.md): how fast a day is generated, what a day costs a simulator's
 * start, and how large a day's plan is. Self-contained: its sizes come from the quick flag, not
 * from the shared config.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { addDays, dayTimeline, generateDay, planView, type DayOptions } from '@racedata/race-day';
import type { BenchContext } from '../context';
import { absoluteRow } from '../lib/absolute-row';
import { compare } from '../lib/compare';
import { startCliSimulator, type SimKind } from '../lib/simulator-process';
import { median, round } from '../lib/stats';
import { waitForHealth } from '../peer-tools/peer-run';
import type { Comparison, MeasureBody } from '../types';

const day = (
  date: string,
  seed: number,
  edgeCases: DayOptions['edgeCases'] = { mode: 'default' },
): DayOptions => ({
  date,
  seed,
  meetings: { trot: 2, gallop: 1 },
  edgeCases,
});

/** Plan and every message of the day: what the generator does for a day. */
function generate(options: DayOptions): { ms: number; messages: number } {
  const started = performance.now();
  const messages = dayTimeline(generateDay(options)).length;
  return { ms: performance.now() - started, messages };
}

async function timedStart(root: string, kind: SimKind, env: Record<string, string>): Promise<number> {
  const started = performance.now();
  const sim = await startCliSimulator(root, kind, { env: { LOG_LEVEL: 'info', ...env } });
  try {
    await waitForHealth(sim.port, () => !sim.exited(), 60_000);
    return performance.now() - started;
  } finally {
    await sim.stop();
  }
}

function runCommand(root: string, args: string[]): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [path.join(root, 'packages/cli/bin/racedata-sim.js'), 'race-day', ...args],
      (err) => (err ? reject(err) : resolve(performance.now() - started)),
    );
  });
}

export async function raceDay(ctx: BenchContext): Promise<MeasureBody> {
  const quick = ctx.config.quick;
  const days = quick ? 3 : 10;
  const comparisons: Comparison[] = [];

  // One day of three meetings, a warm-up first, then a different seed each time.
  generate(day('2026-05-13', 1));
  const singles = Array.from({ length: days }, (_, i) => generate(day(addDays('2026-05-13', i), 100 + i)));
  const ms = median(singles.map((s) => s.ms));
  comparisons.push(
    absoluteRow({
      scenario: `generate one day of three meetings (plan and every message), median of ${days}`,
      unit: 'ms',
      ours: ms,
      target: ['under 300 ms', ms < 300],
      note: `${Math.round(median(singles.map((s) => s.messages)))} messages a day`,
    }),
  );
  const month = quick ? 7 : 31;
  const started = performance.now();
  let messages = 0;
  for (let i = 0; i < month; i++)
    messages += generate({ ...day(addDays('2026-05-01', i), 500 + i), meetings: 'auto' }).messages;
  const monthMs = performance.now() - started;
  comparisons.push(
    absoluteRow({
      scenario: `generate ${month} consecutive days (the calendar's meetings)`,
      unit: 'ms',
      ours: monthMs,
      ...(month === 31 && { target: ['under 5 s' as string, monthMs < 5000] as const }),
      note: `${messages} messages`,
    }),
  );

  // The command as a user runs it, files included (a day is 20-30 MB per simulator).
  const out = mkdtempSync(path.join(ctx.rawDir, 'race-day-'));
  try {
    const one = await runCommand(ctx.simRoot, [
      '--out',
      path.join(out, 'one'),
      '--date',
      '2026-05-13',
      '--meetings',
      'trot:2,gallop:1',
    ]);
    comparisons.push(
      absoluteRow({
        scenario: 'racedata-sim race-day --out DIR, one day (process, files included)',
        unit: 'ms',
        ours: one,
      }),
    );
    if (!quick) {
      const all = await runCommand(ctx.simRoot, [
        '--out',
        path.join(out, 'month'),
        '--date',
        '2026-05-01',
        '--days',
        '31',
      ]);
      comparisons.push(
        absoluteRow({
          scenario: 'racedata-sim race-day --out DIR --days 31 (process, files included)',
          unit: 'ms',
          ours: all,
        }),
      );
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }

  // Start-up with a day against without one, interleaved. The code cache is written first by a
  // start that plays a day, as `npm start` (the first start after a build) and the images'
  // primed cache write it: otherwise the race-day code is compiled at every start.
  const repeats = quick ? 2 : 10;
  const withDay = { RACE_DAY: 'today', RACE_DAY_EDGE_CASES: 'all' };
  rmSync(path.join(ctx.simRoot, 'packages', 'cli', 'dist', 'racedata-sim.cjs.v8cache'), { force: true });
  await timedStart(ctx.simRoot, 'json', withDay);
  for (const kind of ['json', 'legacy'] as const) {
    const plain: number[] = [];
    const played: number[] = [];
    for (let r = 0; r < repeats; r++) {
      const order = r % 2 === 0 ? [false, true] : [true, false];
      for (const on of order)
        (on ? played : plain).push(await timedStart(ctx.simRoot, kind, on ? withDay : {}));
    }
    comparisons.push(
      compare({
        scenario: `${kind} simulator start with RACE_DAY=today (edge cases all) against without, median of ${repeats}`,
        unit: 'ms',
        ours: round(median(played), 2),
        bare: round(median(plain), 2),
        bareName: 'without a day',
        ratioLabel: 'with / without',
        better: 'lower',
        bound: 1.3,
        target: 'within 1.3x of the start without a day',
      }),
    );
  }

  // The largest day: four trot meetings and a gallop one, every edge case.
  const plan = generateDay({
    date: '2026-05-13',
    seed: 1,
    meetings: { trot: 4, gallop: 1 },
    edgeCases: { mode: 'all' },
  });
  const viewBytes = Buffer.byteLength(JSON.stringify(planView(plan, Date.parse('2026-05-13T12:00:00Z'))));
  const planBytes = Buffer.byteLength(JSON.stringify(plan));
  const mb = Math.max(viewBytes, planBytes) / 1e6;
  comparisons.push(
    absoluteRow({
      scenario:
        'plan of the largest day (4 trot meetings, 1 gallop, every edge case): JSON as GET /_sim/race-day answers, and as held',
      unit: 'MB',
      ours: round(mb, 3),
      target: ['under 20 MB', mb < 20],
      note: `${viewBytes} B as answered, ${planBytes} B as held`,
    }),
  );
  return {
    method: [
      'Generation: in the harness process (built race-day package), a warm-up day first; a day is its plan and every message of its timeline (the countdowns every second included), not written anywhere.',
      "The command: `racedata-sim race-day --out DIR` in its own process, until it exits, writing both simulators' files and plan.json.",
      'Start-up: from spawning `racedata-sim json|legacy` until GET /health answers 200, with RACE_DAY=today (edge cases all) and without, interleaved; the figure is the median. The code cache is written first by one untimed start playing a day, as `npm start` writes it after a build.',
      'Plan size: the JSON of the plan as GET /_sim/race-day answers it and as the simulator holds it.',
    ],
    comparisons,
    notes: [],
    profiles: [],
  };
}
