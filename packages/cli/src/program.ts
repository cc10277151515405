import { Command, CommanderError } from 'commander';
import type { CliContext } from './context';
import { EXIT_BAD_CONFIG } from './errors';
import { addOnDemandCommands, commandNamed } from './on-demand-commands';
import { registerReplayCommand } from './replay/replay-command';
import { addSettingOptions } from './setting-options';
import { runStartCommand } from './start-commands';
import { productVersion } from './version';
import { docsHelp, EXIT_CODES_HELP, settingsHelp } from './help-text';
import type { SimulatorKind } from '@racedata/core';

/**
 * The command line's program. `args` (the words after `racedata-sim`) say which command will
 * run, so only that one of the on-demand commands is loaded (see on-demand-commands.ts) and only
 * that simulator command declares its flags; without them every command is complete.
 */
export function buildProgram(ctx: CliContext, args?: readonly string[]): Command {
  const program = new Command('racedata-sim')
    .description(
      'Local stand-in for the race-data customer API: legacy XML/STOMP (8080) and JSON (3000) simulators',
    )
    .version(productVersion())
    .exitOverride()
    .configureOutput({ writeOut: (s) => ctx.stdout.write(s), writeErr: (s) => ctx.stderr.write(s) });

  const named = args && commandNamed(args);
  // A simulator command declares its forty-odd flags only when it is the one that runs (or when
  // no command is named: the top-level help lists each with its options); the others are listed
  // by name, which is all a start of another command or a mistyped name needs.
  const declared = (name: string) => named === undefined || name === named;

  for (const kind of ['json', 'legacy'] as const) {
    const command = program
      .command(kind)
      .description(
        kind === 'json' ? 'run the JSON simulator (port 3000)' : 'run the legacy XML simulator (port 8080)',
      );
    if (!declared(kind)) continue;
    withSettingsHelp(command, kind);
    addSettingOptions(command, kind).action((flags: Record<string, unknown>) =>
      runStartCommand(ctx, kind, flags),
    );
  }

  const all = program.command('all').description('run both simulators: legacy on 8080 and JSON on 3000');
  if (declared('all')) declareAll(ctx, all);

  registerReplayCommand(program, ctx);
  addOnDemandCommands(program, ctx, (name) => args === undefined || name === named);
  // Help texts are rendered when help is printed, not at every start.
  program.addHelpText(
    'after',
    () =>
      `\n${settingsHelp('top')}\n  (racedata-sim replay --help and record --help list those commands' own)\n\n${EXIT_CODES_HELP}\n`,
  );
  // Added last, so that it is the last line of every command's help.
  for (const command of [program, ...program.commands]) {
    command.addHelpText('after', () => `\n${docsHelp(command.name())}\n`);
  }
  return program;
}

function declareAll(ctx: CliContext, all: Command): void {
  withSettingsHelp(all, 'all');
  addSettingOptions(all, 'all').action((flags: Record<string, unknown>) =>
    runStartCommand(ctx, 'all', flags),
  );
}

function withSettingsHelp(command: Command, kind: SimulatorKind | 'all'): void {
  command.addHelpText('after', () => `\n${settingsHelp(kind)}\n\n${EXIT_CODES_HELP}\n`);
}

/**
 * Parses the command line with the whole program and runs what it names. commander's own
 * refusals (an unknown flag, a value not among the choices) and its help and version end the
 * process here, having printed what commander says: 0 for help and version, else 2.
 */
export async function runProgram(argv: readonly string[], ctx: CliContext): Promise<void> {
  try {
    await buildProgram(ctx, argv.slice(2)).parseAsync([...argv]);
  } catch (err) {
    if (!(err instanceof CommanderError)) throw err;
    ctx.exit(err.exitCode === 0 ? 0 : EXIT_BAD_CONFIG);
  }
}
