import { Option, type Command } from 'commander';
import { envValue } from './env';
import {
  SETTINGS,
  parseSettings,
  type SettingKey,
  type SimulatorKind,
  type SimulatorSettings,
} from '@racedata/core';

/** Settings the `all` command sets per simulator instead of from the shared flags. */
const PER_SIMULATOR: readonly SettingKey[] = ['port'];

function flagName(flag: string): string {
  return flag.replace(/^--/, '').replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());
}

/** Declares each setting with a flag once, from the core table (flag, env var, default). */
export function addSettingOptions(command: Command, kind: SimulatorKind | 'all'): Command {
  for (const spec of SETTINGS) {
    if (!spec.flag || (kind === 'all' && PER_SIMULATOR.includes(spec.key))) continue;
    const fallback = spec.defaultFor(kind === 'all' ? 'json' : kind);
    const suffix = fallback === undefined ? `env ${spec.env}` : `env ${spec.env}, default ${fallback}`;
    const help = `${spec.description} (${suffix})`;
    if (spec.boolean) {
      // A switch stands alone (`--rebase-dates`) but still takes an explicit value, as the env var does.
      command.addOption(new Option(`${spec.flag} [value]`, help));
      command.addOption(new Option(spec.flag.replace(/^--/, '--no-'), `turn ${spec.flag} off`).hideHelp());
      continue;
    }
    const option = new Option(`${spec.flag} <value>`, help);
    if (spec.choices) option.choices(spec.choices);
    command.addOption(option);
  }
  command.addOption(
    new Option('--no-replay', 'start with no replay, whatever the replay flags and env vars say'),
  );
  return command;
}

/** Flag beats env var beats default; a bad value throws CONFIG_INVALID naming the variable. */
export function resolveCliSettings(
  kind: SimulatorKind,
  flags: Record<string, unknown>,
  env: Readonly<Record<string, string | undefined>>,
  overrides: Partial<Record<SettingKey, string>> = {},
): SimulatorSettings {
  const raw: Partial<Record<SettingKey, string>> = {};
  for (const spec of SETTINGS) {
    const fromFlag = spec.flag ? flags[flagName(spec.flag)] : undefined;
    const flagText = typeof fromFlag === 'boolean' ? String(fromFlag) : fromFlag;
    const value =
      overrides[spec.key] ?? (typeof flagText === 'string' ? flagText : undefined) ?? envValue(env, spec.env);
    if (value !== undefined) raw[spec.key] = value;
  }
  if (flags.replay === false) {
    delete raw.autoReplayIntervalMs;
    delete raw.maxDelayMs;
  }
  return parseSettings(kind, raw);
}
