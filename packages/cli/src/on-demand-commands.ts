import type { Command } from 'commander';
import type { CliContext } from './context';

/** A command whose code is loaded only when it runs or its help is asked for. */
interface OnDemandCommand {
  readonly description: string;
  register(program: Command, ctx: CliContext): void;
}

/*
 * record, anonymise, certify and race-day, with the packages they stand on (the recorder, certify with
 * its suites and STOMP client), are most of the CLI's code, and a simulator's start needs none
 * of them: evaluating them made every `racedata-sim json` or `legacy` answer later. Their modules
 * are required here, inside functions, so the bundle (scripts/bundle.mjs) keeps them apart until
 * called. Each module names itself with the description below, so both say the same.
 */
/* eslint-disable @typescript-eslint/no-require-imports */
export const ON_DEMAND_COMMANDS = {
  record: {
    description:
      'record a live feed (all four transports) into a recordings directory that --recordings replays',
    register: (program, ctx) =>
      (require('./record/record-command') as typeof import('./record/record-command')).registerRecordCommand(
        program,
        ctx,
      ),
  },
  anonymise: {
    description: 'copy a recordings directory with names replaced by pseudonyms and fields redacted',
    register: (program, ctx) =>
      (
        require('./anonymise/anonymise-command') as typeof import('./anonymise/anonymise-command')
      ).registerAnonymiseCommand(program, ctx),
  },
  certify: {
    description:
      'certify a client: drive it through the ways production misbehaves and grade what it handled',
    register: (program, ctx) =>
      (
        require('./certify/certify-command') as typeof import('./certify/certify-command')
      ).registerCertifyCommand(program, ctx),
  },
  'race-day': {
    description: 'write generated race days as recordings (legacy/, json/) and their plan (plan.json)',
    register: (program, ctx) =>
      (
        require('./race-day/race-day-command') as typeof import('./race-day/race-day-command')
      ).registerRaceDayCommand(program, ctx),
  },
} as const satisfies Readonly<Record<string, OnDemandCommand>>;
/* eslint-enable @typescript-eslint/no-require-imports */

/**
 * The command a command line runs (or asks help about): its first word that is not an option,
 * the one after `help` for `racedata-sim help <command>`. The program's own options (--help,
 * --version) take no value, so no option's value is taken for the command.
 */
export function commandNamed(args: readonly string[]): string | undefined {
  const words = args.filter((arg) => !arg.startsWith('-'));
  return words[0] === 'help' ? words[1] : words[0];
}

/**
 * Adds each on-demand command: in full when `full` says so, else its name and description only,
 * which is all the program's help and its command lookup read.
 */
export function addOnDemandCommands(
  program: Command,
  ctx: CliContext,
  full: (name: string) => boolean,
): void {
  for (const [name, command] of Object.entries(ON_DEMAND_COMMANDS)) {
    if (full(name)) command.register(program, ctx);
    else program.command(name).description(command.description);
  }
}
