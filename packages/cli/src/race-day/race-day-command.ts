import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { isSimError } from '@racedata/core';
import { dayRecordingFiles, generateDay, localInstant, addDays, planView } from '@racedata/race-day';
import type { CliContext } from '../context';
import { EXIT_BAD_CONFIG, EXIT_FAILED } from '../errors';
import { ON_DEMAND_COMMANDS } from '../on-demand-commands';
import { addRaceDayOptions, resolveRaceDayOptions } from './race-day-options';

/** plan.json is the plan at the end of its day, every phase final. */
const endOf = (date: string) => localInstant(addDays(date, 1), 0) - 1;

/**
 * `racedata-sim race-day --out DIR`: writes generated race days as recordings both simulators
 * replay (legacy/, json/) and the plan as GET /_sim/race-day shows it (plan.json; with several
 * days, each day's also in plans/DATE.json). The same options write the same bytes.
 */
export function registerRaceDayCommand(
  program: Command,
  ctx: CliContext,
  now: () => number = Date.now,
): void {
  const command = program.command('race-day').description(ON_DEMAND_COMMANDS['race-day'].description);
  addRaceDayOptions(command).action(async (flags: Record<string, unknown>) => {
    try {
      const options = resolveRaceDayOptions(flags, now());
      // Generated (and checked) before anything is written: a bad placement writes nothing.
      const plans = options.days.map((day) => generateDay(day));
      let messages = 0;
      for (const [i, plan] of plans.entries()) {
        const files = dayRecordingFiles(plan);
        const view = `${JSON.stringify(planView(plan, endOf(plan.date)), null, 2)}\n`;
        if (i === 0) files.set('plan.json', view);
        if (plans.length > 1) files.set(`plans/${plan.date}.json`, view);
        for (const [rel, text] of files) {
          const file = path.join(options.out, rel);
          await mkdir(path.dirname(file), { recursive: true });
          await writeFile(file, text);
          if (rel.startsWith('json/')) messages += text.split('\n').length - 1;
        }
      }
      const meetings = plans.reduce((n, p) => n + p.meetings.length, 0);
      ctx.stdout.write(
        `race-day: ${plans.length} day${plans.length === 1 ? '' : 's'} from ${plans[0]!.date}, ${meetings} meetings, ` +
          `${messages} messages each in ${path.join(options.out, 'legacy')} and ${path.join(options.out, 'json')}; plan in ${path.join(options.out, 'plan.json')}\n`,
      );
      ctx.exit(0);
    } catch (err) {
      const bad = isSimError(err) && err.status === 400;
      if (!bad && isSimError(err)) throw err;
      ctx.stderr.write(`racedata-sim race-day: ${(err as Error).message}\n`);
      ctx.exit(bad ? EXIT_BAD_CONFIG : EXIT_FAILED);
    }
  });
}
