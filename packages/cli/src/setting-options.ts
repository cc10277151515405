import { Option, type Command } from 'commander';
import type { SimulatorKind } from '@racedata/core';
import { settingSpecsFor } from './cli-settings';
import { addOptions } from './options';

export { resolveCliSettings } from './cli-settings';

/** Declares each setting with a flag once, from the core table (flag, env var, default). */
export function addSettingOptions(command: Command, kind: SimulatorKind | 'all'): Command {
  addOptions(command, settingSpecsFor(kind), kind === 'all' ? 'json' : kind);
  command.addOption(
    new Option('--no-replay', 'start with no replay, whatever the replay flags and env vars say'),
  );
  command.addOption(
    new Option('--no-race-day', 'start with no race day, whatever --race-day and RACE_DAY say'),
  );
  return command;
}
