import type { SimulatorKind } from '@racedata/core';
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
}

function seedOf(flags: Record<string, unknown>): string | undefined {
  return typeof flags.seed === 'string' ? flags.seed : undefined;
}
