import type { OptionSpec } from '@racedata/core';
import { envValue } from './env';

/** commander's property for a flag: `--log-level` is read as `logLevel`. */
export function flagProperty(flag: string): string {
  return flag.replace(/^--/, '').replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());
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
