import { Option, type Command } from 'commander';
import {
  addDays,
  defaultSeed,
  localDateOf,
  parseDateOption,
  parseEdgeCasesOption,
  parseMeetingsOption,
  parseSeedOption,
  raceDayError,
  type DayOptions,
} from '@racedata/race-day';

/** Days one command writes at most. */
export const MAX_DAYS = 31;

export interface RaceDayCommandOptions {
  readonly out: string;
  /** One set of day options per date, in date order. */
  readonly days: readonly DayOptions[];
}

export function addRaceDayOptions(command: Command): Command {
  return command
    .requiredOption('--out <dir>', 'directory to write legacy/, json/ and plan.json into (made if missing)')
    .addOption(
      new Option('--date <date>', 'first race date, YYYY-MM-DD or today (the date in Sweden)').default(
        'today',
      ),
    )
    .addOption(new Option('--days <n>', `consecutive dates to write, 1 to ${MAX_DAYS}`).default('1'))
    .addOption(
      new Option(
        '--seed <n>',
        'seed of the first date, one more for each later date (default: the date, 20240511)',
      ),
    )
    .addOption(
      new Option(
        '--meetings <counts>',
        'auto (the calendar) or trot:N,gallop:N (trot 0-4, gallop 0-1)',
      ).default('auto'),
    )
    .addOption(
      new Option(
        '--edge-cases <cases>',
        'default (a realistic few), all, none, or a list of id[@trackId[:raceNr]]',
      ).default('default'),
    );
}

/** The command's flags as day options; a bad value throws RACE_DAY_INVALID naming the flag (exit 2). */
export function resolveRaceDayOptions(flags: Record<string, unknown>, now: number): RaceDayCommandOptions {
  const first = parseDateOption(flags.date, localDateOf(now), '--date');
  const text = String(flags.days);
  const count = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!(count >= 1 && count <= MAX_DAYS)) {
    throw raceDayError(
      'RACE_DAY_INVALID',
      `--days: expected a whole number from 1 to ${MAX_DAYS}, got "${text.slice(0, 20)}"`,
    );
  }
  const seed = flags.seed === undefined ? undefined : parseSeedOption(flags.seed, '--seed');
  const meetings = parseMeetingsOption(flags.meetings, '--meetings');
  const edgeCases = parseEdgeCasesOption(flags.edgeCases, '--edge-cases');
  const days = Array.from({ length: count }, (_, i): DayOptions => {
    const date = addDays(first, i);
    return {
      date,
      seed: seed === undefined ? defaultSeed(date) : (seed + i) % 4_294_967_296,
      meetings,
      edgeCases,
    };
  });
  return { out: String(flags.out), days };
}
