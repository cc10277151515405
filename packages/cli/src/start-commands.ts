import { parseOptions, SETTINGS, type SimulatorKind } from '@racedata/core';
import { resolveCliSettings } from './cli-settings';
import type { CliContext } from './context';
import { envValue } from './env';
import { runSimulators } from './run-simulators';

/** A command that runs simulators: one of them, or `all` (legacy on 8080, JSON on 3000). */
export type StartCommand = SimulatorKind | 'all';

/**
 * Runs a simulator command with its flags as commander reads them (property names such as
 * `logLevel`, switches as true or false): what both the full command line (program.ts) and a
 * plain start (plain-start.ts) end in.
 */
export async function runStartCommand(
  ctx: CliContext,
  command: StartCommand,
  flags: Record<string, unknown>,
): Promise<void> {
  if (command !== 'all') {
    await runSimulators(ctx, [
      { kind: command, settings: resolveCliSettings(command, flags, ctx.env), seed: seedOf(flags) },
    ]);
    return;
  }
  // Checked here, named as given: a bad `--json-port` is not reported as PORT (--port).
  const port = (given: unknown, env: string, flag: string, fallback: string) => {
    const text = (typeof given === 'string' ? given : undefined) ?? envValue(ctx.env, env) ?? fallback;
    parseOptions([{ ...PORT, env, flag }], { port: text }, 'json');
    return text;
  };
  await runSimulators(ctx, [
    {
      kind: 'legacy',
      settings: resolveCliSettings('legacy', flags, ctx.env, {
        port: port(flags.legacyPort, 'LEGACY_PORT', '--legacy-port', '8080'),
      }),
    },
    {
      kind: 'json',
      settings: resolveCliSettings('json', flags, ctx.env, {
        port: port(flags.jsonPort, 'JSON_PORT', '--json-port', '3000'),
      }),
      seed: seedOf(flags),
    },
  ]);
}

const PORT = SETTINGS.find((spec) => spec.key === 'port') as (typeof SETTINGS)[number];

function seedOf(flags: Record<string, unknown>): string | undefined {
  return typeof flags.seed === 'string' ? flags.seed : undefined;
}
