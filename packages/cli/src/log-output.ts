import {
  createLogger,
  type LogDestination,
  type LogFormat,
  type Logger,
  type LogLevel,
} from '@racedata/core';
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
  // Settled by the first line, not at every start: asking stderr whether it is a terminal makes
  // Node build its stream (over a millisecond for a pipe), and a simulator logs nothing until
  // something happens.
  let lines: LogDestination | undefined;
  const out: LogDestination = { write: (line) => (lines ??= stderrLines(ctx, options.format)).write(line) };
  const destination = ctx.holdLogLines === true ? new HeldLines(out) : out;
  return createLogger({ level: options.level, ...(options.name && { name: options.name }), destination });
}

function stderrLines(ctx: CliContext, logFormat: LogFormat): LogDestination {
  const format = resolveLogFormat(logFormat, ctx.stderr);
  const tty = (ctx.stderr as { isTTY?: boolean }).isTTY === true;
  // https://no-color.org: any non-empty NO_COLOR turns colours off.
  const colors = tty && envValue(ctx.env, 'NO_COLOR') === undefined;
  return format === 'pretty' ? prettyDestination(ctx.stderr, { colors }) : ctx.stderr;
}
