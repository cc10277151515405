import {
  SETTINGS,
  parseSettings,
  type SettingKey,
  type SimulatorKind,
  type SimulatorSettings,
} from '@racedata/core';
import { optionTexts } from './option-texts';

/** Settings the `all` command sets per simulator instead of from the shared flags. */
const PER_SIMULATOR: readonly SettingKey[] = ['port'];

/** The settings a simulator command declares a flag for: `all` leaves out the per-simulator ones. */
export const settingSpecsFor = (kind: SimulatorKind | 'all') =>
  kind === 'all' ? SETTINGS.filter((spec) => !PER_SIMULATOR.includes(spec.key)) : SETTINGS;

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
