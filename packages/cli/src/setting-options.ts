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
    command.addOption(new Option(`${spec.flag} <value>`, `${spec.description} (${suffix})`));
  }
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
    const value =
      overrides[spec.key] ?? (typeof fromFlag === 'string' ? fromFlag : undefined) ?? envValue(env, spec.env);
    if (value !== undefined) raw[spec.key] = value;
  }
  return parseSettings(kind, raw);
}
