import type { LogDestination } from '@racedata/core';

export interface PrettyOptions {
  /** ANSI colours for the level (a terminal that did not ask for NO_COLOR). */
  readonly colors: boolean;
}

const LEVEL_COLORS: Record<string, number> = {
  fatal: 31,
  error: 31,
  warn: 33,
  info: 32,
  debug: 90,
  trace: 90,
};
// Shown in the line's head rather than as key=value.
const HEAD_FIELDS = new Set(['time', 'level', 'msg', 'name', 'sim', 'err']);

function paint(text: string, code: number | undefined, options: PrettyOptions): string {
  return options.colors && code !== undefined ? `\u001b[${code}m${text}\u001b[0m` : text;
}

/** logfmt's spelling: bare when it cannot be misread, JSON text otherwise. */
function valueText(value: unknown): string {
  if (typeof value === 'string') return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
  if (value === null || typeof value !== 'object') return String(value);
  return JSON.stringify(value);
}

function errorLines(err: unknown): string[] {
  if (err === null || typeof err !== 'object') return err === undefined ? [] : [`  err=${valueText(err)}`];
  const { message, stack } = err as { message?: unknown; stack?: unknown };
  if (typeof stack === 'string') return stack.split('\n').map((line) => `    ${line.trim()}`);
  return [`  err=${valueText(message ?? err)}`];
}

/**
 * One of pino's JSON lines as a person reads it:
 * `2026-05-11T10:00:00.000Z INFO  json: request method=GET path=/health status=200 ms=0.4`.
 * A line that is not a JSON object passes through unchanged.
 */
export function prettyLine(line: string, options: PrettyOptions): string {
  let record: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(line);
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return line;
    record = parsed as Record<string, unknown>;
  } catch {
    // Not one of pino's lines (a partial write, or text from elsewhere): shown as it came.
    return line;
  }
  const level = typeof record.level === 'string' ? record.level : String(record.level ?? '');
  const source = record.sim ?? record.name;
  const head = [
    typeof record.time === 'string' ? record.time : new Date().toISOString(),
    paint(level.toUpperCase().padEnd(5), LEVEL_COLORS[level], options),
    `${source === undefined ? '' : `${valueText(source)}: `}${typeof record.msg === 'string' ? record.msg : ''}`,
  ].join(' ');
  const fields = Object.entries(record)
    .filter(([key]) => !HEAD_FIELDS.has(key))
    .map(([key, value]) => `${key}=${valueText(value)}`);
  return [[head, ...fields].join(' ').trimEnd(), ...errorLines(record.err)].join('\n') + '\n';
}

/** A log destination that writes each line pretty to `out`. */
export function prettyDestination(out: NodeJS.WritableStream, options: PrettyOptions): LogDestination {
  return {
    write(chunk: string) {
      const lines = chunk.split('\n').filter((line) => line !== '');
      out.write(lines.map((line) => prettyLine(line, options)).join(''));
    },
  };
}
