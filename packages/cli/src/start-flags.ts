import type { StartCommand } from './start-commands';

/**
 * A simulator command's flags that are not settings (the settings' own come from core's table):
 * what program.ts declares for commander and plain-start.ts reads without it, from one list.
 * `value` is the placeholder of a flag that takes one; a flag without one is a `--no-` form.
 * Those taking a value come before the command's settings and the `--no-` forms after them, as
 * commander reads `--no-race-day` as the off side of `--race-day <value>` only when declared
 * after it.
 */
export interface StartFlag {
  readonly flag: string;
  readonly value?: string;
  readonly description: string;
  readonly commands: readonly StartCommand[];
}

export const START_FLAGS: readonly StartFlag[] = [
  {
    flag: '--legacy-port',
    value: '<value>',
    description: 'legacy simulator port (env LEGACY_PORT, default 8080)',
    commands: ['all'],
  },
  {
    flag: '--json-port',
    value: '<value>',
    description: 'JSON simulator port (env JSON_PORT, default 3000)',
    commands: ['all'],
  },
  {
    flag: '--seed',
    value: '<file|N>',
    description:
      'fill the JSON store before listening: an NDJSON file (one POST /api/message body a line) or N generated events',
    commands: ['json', 'all'],
  },
  {
    flag: '--no-replay',
    description: 'start with no replay, whatever the replay flags and env vars say',
    commands: ['json', 'legacy', 'all'],
  },
  {
    flag: '--no-race-day',
    description: 'start with no race day, whatever --race-day and RACE_DAY say',
    commands: ['json', 'legacy', 'all'],
  },
];

/** The command's flags of START_FLAGS: those taking a value (before its settings) or not (after). */
export const startFlagsOf = (command: StartCommand, valued: boolean) =>
  START_FLAGS.filter((flag) => flag.commands.includes(command) && (flag.value !== undefined) === valued);
