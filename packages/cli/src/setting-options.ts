import { Option, type Command } from 'commander';
import {
  SETTINGS,
  parseSettings,
  type SettingKey,
  type SimulatorKind,
  type SimulatorSettings,
} from '@racedata/core';
import { addOptions, optionTexts } from './options';

/** Settings the `all` command sets per simulator instead of from the shared flags. */
const PER_SIMULATOR: readonly SettingKey[] = ['port'];

/** Declares each setting with a flag once, from the core table (flag, env var, default). */
export function addSettingOptions(command: Command, kind: SimulatorKind | 'all'): Command {
  const specs = kind === 'all' ? SETTINGS.filter((spec) => !PER_SIMULATOR.includes(spec.key)) : SETTINGS;
  addOptions(command, specs, kind === 'all' ? 'json' : kind);
  command.addOption(
    new Option('--no-replay', 'start with no replay, whatever the replay flags and env vars say'),
  );
  command.addOption(
    new Option('--no-race-day', 'start with no race day, whatever --race-day and RACE_DAY say'),
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
  const raw = { ...optionTexts(SETTINGS, flags, env), ...overrides };
  if (flags.replay === false) {
    delete raw.autoReplayIntervalMs;
    delete raw.maxDelayMs;
  }
  if (flags.raceDay === false) delete raw.raceDay;
  return parseSettings(kind, raw);
}
