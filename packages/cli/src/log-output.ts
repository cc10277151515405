import { createLogger, type LogFormat, type Logger, type LogLevel } from '@racedata/core';
import type { CliContext } from './context';
import { envValue } from './env';
import { HeldLines } from './held-lines';
import { prettyDestination } from './pretty-log';

/** `auto` picks pretty lines for a person at a terminal and JSON for anything reading a pipe or file. */
export function resolveLogFormat(format: LogFormat, stderr: NodeJS.WritableStream): 'pretty' | 'json' {
  if (format !== 'auto') return format;
  return (stderr as { isTTY?: boolean }).isTTY === true ? 'pretty' : 'json';
}

/**
 * The CLI's logger: always on stderr, so what a command prints on stdout (the banner, the
 * hints) can be piped on its own; pretty or JSON by LOG_FORMAT.
 */
export function cliLogger(
  ctx: CliContext,
  options: { level: LogLevel; format: LogFormat; name?: string },
): Logger {
  const format = resolveLogFormat(options.format, ctx.stderr);
  const tty = (ctx.stderr as { isTTY?: boolean }).isTTY === true;
  // https://no-color.org: any non-empty NO_COLOR turns colours off.
  const colors = tty && envValue(ctx.env, 'NO_COLOR') === undefined;
  const lines = format === 'pretty' ? prettyDestination(ctx.stderr, { colors }) : ctx.stderr;
  const destination = ctx.holdLogLines === true ? new HeldLines(lines) : lines;
  return createLogger({ level: options.level, ...(options.name && { name: options.name }), destination });
}
