import { Option, type Command } from 'commander';
import type { SimulatorKind } from '@racedata/core';
import { settingSpecsFor } from './cli-settings';
import { addOptions } from './options';
import { startFlagsOf } from './start-flags';

export { resolveCliSettings } from './cli-settings';

/**
 * Declares a simulator command's flags: those of START_FLAGS taking a value, each setting with a
 * flag once, from the core table (flag, env var, default), then the `--no-` forms.
 */
export function addSettingOptions(command: Command, kind: SimulatorKind | 'all'): Command {
  for (const { flag, value, description } of startFlagsOf(kind, true))
    command.addOption(new Option(`${flag} ${value}`, description));
  addOptions(command, settingSpecsFor(kind), kind === 'all' ? 'json' : kind);
  for (const { flag, description } of startFlagsOf(kind, false))
    command.addOption(new Option(flag, description));
  return command;
}
