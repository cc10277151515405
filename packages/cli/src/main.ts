import { Command, CommanderError, Option } from 'commander';
import type { CliContext } from './context';
import { EXIT_BAD_CONFIG, exitCodeOf } from './errors';
import { envValue } from './env';
import { addOnDemandCommands, commandNamed } from './on-demand-commands';
import { registerReplayCommand } from './replay/replay-command';
import { runSimulators } from './run-simulators';
import { addSettingOptions, resolveCliSettings } from './setting-options';
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
    if (kind === 'json') command.addOption(seedOption());
    withSettingsHelp(command, kind);
    addSettingOptions(command, kind).action(async (flags: Record<string, unknown>) => {
      await runSimulators(ctx, [
        { kind, settings: resolveCliSettings(kind, flags, ctx.env), seed: seedOf(flags) },
      ]);
    });
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
  all.addOption(new Option('--legacy-port <value>', 'legacy simulator port (env LEGACY_PORT, default 8080)'));
  all.addOption(new Option('--json-port <value>', 'JSON simulator port (env JSON_PORT, default 3000)'));
  all.addOption(seedOption());
  withSettingsHelp(all, 'all');
  addSettingOptions(all, 'all').action(async (flags: Record<string, unknown>) => {
    const port = (flag: unknown, env: string, fallback: string) =>
      (typeof flag === 'string' ? flag : undefined) ?? envValue(ctx.env, env) ?? fallback;
    await runSimulators(ctx, [
      {
        kind: 'legacy',
        settings: resolveCliSettings('legacy', flags, ctx.env, {
          port: port(flags.legacyPort, 'LEGACY_PORT', '8080'),
        }),
      },
      {
        kind: 'json',
        settings: resolveCliSettings('json', flags, ctx.env, {
          port: port(flags.jsonPort, 'JSON_PORT', '3000'),
        }),
        seed: seedOf(flags),
      },
    ]);
  });
}

function withSettingsHelp(command: Command, kind: SimulatorKind | 'all'): void {
  command.addHelpText('after', () => `\n${settingsHelp(kind)}\n\n${EXIT_CODES_HELP}\n`);
}

function seedOption(): Option {
  return new Option(
    '--seed <file|N>',
    'fill the JSON store before listening: an NDJSON file (one POST /api/message body a line) or N generated events',
  );
}

function seedOf(flags: Record<string, unknown>): string | undefined {
  return typeof flags.seed === 'string' ? flags.seed : undefined;
}

/** Runs the command line; configuration errors print one line and exit 2. */
export async function run(argv: readonly string[], ctx: CliContext): Promise<void> {
  try {
    await buildProgram(ctx, argv.slice(2)).parseAsync([...argv]);
  } catch (err) {
    if (err instanceof CommanderError) {
      const ok = err.exitCode === 0;
      ctx.exit(ok ? 0 : EXIT_BAD_CONFIG);
      return;
    }
    ctx.stderr.write(`racedata-sim: ${(err as Error).message}\n`);
    ctx.exit(exitCodeOf(err));
  }
}

export function processContext(env: NodeJS.ProcessEnv): CliContext {
  // `racedata-sim --help | head` or a reader of the banner that went away: what was printed
  // is lost, which is no reason to crash (a running simulator keeps serving).
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
  });
  return {
    env,
    stdout: process.stdout,
    // Node builds process.stderr on first use; a start that logs nothing never needs it.
    get stderr() {
      return process.stderr;
    },
    holdLogLines: true,
    // The event packages/cli/bin/code-cache.js listens for (its STARTED).
    started: (kind) => (process as NodeJS.EventEmitter).emit('racedata-sim:started', kind),
    exit: (code) => process.exit(code),
    onShutdownSignal(handler) {
      let signalled = false;
      const onSignal = (signal: NodeJS.Signals) => {
        // A second signal means the user is done waiting.
        if (signalled) process.exit(130);
        signalled = true;
        handler(signal);
      };
      process.on('SIGTERM', onSignal);
      process.on('SIGINT', onSignal);
    },
  };
}

export function main(argv: readonly string[], env: NodeJS.ProcessEnv): void {
  void run(argv, processContext(env));
}
