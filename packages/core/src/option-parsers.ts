import { coreError } from './errors';

/**
 * One option, declared once: the flag spelling, the environment variable, the help text, the
 * default and the parser. The simulator settings and the replay command's options are tables of
 * these; `Variant` is what a default may depend on (the simulator kind for settings).
 */
export interface OptionSpec<Key extends string = string, Variant = void> {
  readonly key: Key;
  /** commander flag spelling without the value placeholder, e.g. `--port`; undefined: env only. */
  readonly flag: string | undefined;
  readonly env: string;
  readonly description: string;
  /** Shown in help and docs; `undefined` means off / not set. */
  readonly defaultFor: (variant: Variant) => string | undefined;
  readonly parse: Parser<unknown>;
  /** A switch: the flag may stand alone (meaning true) and has a `--no-` form. */
  readonly boolean?: true;
  /** The only values accepted, for help text and completion. */
  readonly choices?: readonly string[];
}

export type Parser<T> = (raw: string) => T;

class OptionValueError extends Error {}

/** A default that does not depend on the variant. */
export const always = (value: string | undefined) => (): string | undefined => value;

export function parseInteger(min: number, max = Number.MAX_SAFE_INTEGER): Parser<number> {
  return (raw) => {
    const text = raw.trim();
    if (!/^-?\d+$/.test(text)) throw new OptionValueError(`expected a whole number, got "${raw}"`);
    const n = Number(text);
    if (n < min || n > max) throw new OptionValueError(`expected a number from ${min} to ${max}, got ${n}`);
    return n;
  };
}

export function parseBoolean(raw: string): boolean {
  const text = raw.trim().toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(text)) return true;
  if (['false', '0', 'no', 'off', ''].includes(text)) return false;
  throw new OptionValueError(`expected true or false, got "${raw}"`);
}

export function parseOneOf<T extends string>(values: readonly T[]): Parser<T> {
  return (raw) => {
    const text = raw.trim() as T;
    if (!values.includes(text))
      throw new OptionValueError(`expected one of ${values.join(', ')}, got "${raw}"`);
    return text;
  };
}

export function parseText(raw: string): string {
  if (raw.trim() === '') throw new OptionValueError('must not be empty');
  return raw;
}

/** How an option is named in errors: the variable, and the flag when there is one. */
export function optionName(spec: Pick<OptionSpec, 'env' | 'flag'>): string {
  return spec.flag ? `${spec.env} (${spec.flag})` : spec.env;
}

/**
 * Parses raw strings (flag or env values, keyed by option) with each option's parser, filling
 * defaults; an option with neither stays undefined. A bad value throws CONFIG_INVALID naming
 * the variable and flag, for the CLI to print and exit 2.
 */
export function parseOptions<Key extends string, Variant>(
  specs: readonly OptionSpec<Key, Variant>[],
  raw: Partial<Record<Key, string | undefined>>,
  variant: Variant,
): Record<Key, unknown> {
  const values = {} as Record<Key, unknown>;
  for (const spec of specs) {
    const text = raw[spec.key] ?? spec.defaultFor(variant);
    if (text === undefined) {
      values[spec.key] = undefined;
      continue;
    }
    try {
      values[spec.key] = spec.parse(text);
    } catch (err) {
      throw coreError('CONFIG_INVALID', `${optionName(spec)}: ${(err as Error).message}`, { cause: err });
    }
  }
  return values;
}
