import { rmSync } from 'node:fs';
import path from 'node:path';
import { timedStart, type SimKind } from '../../harness/processes';
import { compare, med } from '../../harness/rows';
import type { Scenario } from '../../types';

const WITH_DAY = { RACE_DAY: 'today', RACE_DAY_EDGE_CASES: 'all' };

export default {
  method: () => [
    'Start-up: from spawning `racedata-sim json|legacy` until GET /health answers 200, with RACE_DAY=today (edge cases all) and without, interleaved; the figure is the median. The code cache is written first by one untimed start playing a day, as `npm start` writes it after a build.',
  ],
  async run(ctx) {
    const { repeats } = ctx.config.raceDay;
    // Otherwise the race-day code would be compiled at every start: the cache `npm start` (the
    // first start after a build) and the images' primed cache write covers it.
    rmSync(path.join(ctx.simRoot, 'packages', 'cli', 'dist', 'racedata-sim.cjs.v8cache'), { force: true });
    await timedStart(ctx, 'json', WITH_DAY);
    const rows = [];
    for (const kind of ['json', 'legacy'] satisfies SimKind[]) {
      const [plain, played]: [number[], number[]] = [[], []];
      for (let r = 0; r < repeats; r++)
        for (const on of r % 2 === 0 ? [false, true] : [true, false])
          (on ? played : plain).push(await timedStart(ctx, kind, on ? WITH_DAY : {}));
      rows.push(
        compare({
          scenario: `${kind} simulator start with RACE_DAY=today (edge cases all) against without, median of ${repeats}`,
          ...{ unit: 'ms', ours: med(played), bare: med(plain), bareName: 'without a day' },
          ...{ ratioLabel: 'with / without', better: 'lower', bound: 1.3 },
          target: 'within 1.3x of the start without a day',
        }),
      );
    }
    return { rows };
  },
} satisfies Scenario;
