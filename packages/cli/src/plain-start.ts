import { settingSpecsFor } from './cli-settings';
import { flagProperty } from './option-texts';
import { START_FLAGS } from './start-flags';
import type { StartCommand } from './start-commands';

/** A simulator command and its flags, read as commander reads them (see plainStart). */
export interface PlainStart {
  readonly command: StartCommand;
  readonly flags: Record<string, unknown>;
}

/** What a flag takes: a value, nothing (a switch, true) or nothing meaning false (a `--no-` form). */
interface Flag {
  readonly property: string;
  readonly takes: 'value' | 'switch' | 'off';
  readonly choices?: readonly string[] | undefined;
}

const tables = new Map<StartCommand, ReadonlyMap<string, Flag>>();

/** The flags a simulator command declares (setting-options.ts), by spelling. */
function flagsOf(command: StartCommand): ReadonlyMap<string, Flag> {
  let table = tables.get(command);
  if (table) return table;
  const flags = new Map<string, Flag>();
  for (const spec of settingSpecsFor(command)) {
    if (!spec.flag) continue;
    const property = flagProperty(spec.flag);
    flags.set(spec.flag, { property, takes: spec.boolean ? 'switch' : 'value', choices: spec.choices });
    if (spec.boolean) flags.set(spec.flag.replace(/^--/, '--no-'), { property, takes: 'off' });
  }
  for (const { flag, value } of START_FLAGS.filter((start) => start.commands.includes(command))) {
    const property = flagProperty(flag.replace(/^--no-/, '--'));
    flags.set(flag, { property, takes: value === undefined ? 'off' : 'value' });
  }
  table = flags;
  tables.set(command, table);
  return table;
}

/**
 * A simulator start in its plain form (`json`, `legacy` or `all`, then that command's own flags
 * as `--flag value`, `--flag=value`, a switch alone or a `--no-` form), read without commander:
 * building the whole program, with its forty-odd options per command, was a sizeable part of
 * every start. Its flags come out as commander's would (a property test holds the two
 * together). Anything else is left to commander (undefined): help, the version, another
 * command, an unknown flag, a value commander refuses (not one of its choices, missing), or a
 * word commander would read in a way of its own (a value starting with `-`, a switch followed by
 * a word, `--`).
 */
export function plainStart(args: readonly string[]): PlainStart | undefined {
  const [command] = args;
  if (command !== 'json' && command !== 'legacy' && command !== 'all') return undefined;
  const table = flagsOf(command);
  // commander's own default for an option declared only by its `--no-` form.
  const flags: Record<string, unknown> = { replay: true };
  for (let i = 1; i < args.length; i++) {
    const arg = args[i] as string;
    if (!arg.startsWith('--')) return undefined;
    const equals = arg.indexOf('=');
    const flag = table.get(equals < 0 ? arg : arg.slice(0, equals));
    if (!flag) return undefined;
    const next = args[i + 1];
    let value: string | boolean;
    if (flag.takes === 'off') {
      if (equals >= 0) return undefined;
      value = false;
    } else if (equals >= 0) {
      value = arg.slice(equals + 1);
    } else if (flag.takes === 'switch') {
      if (next !== undefined && !next.startsWith('-')) return undefined;
      value = true;
    } else {
      if (next === undefined || next.startsWith('-')) return undefined;
      value = next;
      i++;
    }
    if (flag.choices && !(typeof value === 'string' && flag.choices.includes(value))) return undefined;
    flags[flag.property] = value;
  }
  return { command, flags };
}
