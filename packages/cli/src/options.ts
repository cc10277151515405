import { Option, type Command } from 'commander';
import type { OptionSpec } from '@racedata/core';

export { optionTexts } from './option-texts';

/**
 * Declares every option of a table that has a flag, with help text naming its variable and,
 * when it has one, its default (for `variant`).
 */
export function addOptions<Key extends string, Variant>(
  command: Command,
  specs: readonly OptionSpec<Key, Variant>[],
  variant: Variant,
): Command {
  for (const spec of specs) {
    if (!spec.flag) continue;
    const fallback = spec.defaultFor(variant);
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
  return command;
}
