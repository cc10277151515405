import { Option, type Command } from 'commander';
import type { OptionSpec } from '@racedata/core';
import { envValue } from './env';

/** commander's property for a flag: `--log-level` is read as `logLevel`. */
function flagProperty(flag: string): string {
  return flag.replace(/^--/, '').replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());
}

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

/** The raw text of each option given: a flag beats its env var; defaults are left to parseOptions. */
export function optionTexts<Key extends string, Variant>(
  specs: readonly OptionSpec<Key, Variant>[],
  flags: Record<string, unknown>,
  env: Readonly<Record<string, string | undefined>>,
): Partial<Record<Key, string>> {
  const raw: Partial<Record<Key, string>> = {};
  for (const spec of specs) {
    const fromFlag = spec.flag ? flags[flagProperty(spec.flag)] : undefined;
    const flagText = typeof fromFlag === 'boolean' ? String(fromFlag) : fromFlag;
    const value = (typeof flagText === 'string' ? flagText : undefined) ?? envValue(env, spec.env);
    if (value !== undefined) raw[spec.key] = value;
  }
  return raw;
}
