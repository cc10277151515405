import pino from 'pino';

/** The logger every package receives; pino's shape, so the CLI can hand in a real one. */
export interface Logger {
  debug(obj: object | string, msg?: string): void;
  info(obj: object | string, msg?: string): void;
  warn(obj: object | string, msg?: string): void;
  error(obj: object | string, msg?: string): void;
  child(bindings: Record<string, unknown>): Logger;
}

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** How log lines are printed: `auto` is `pretty` on a terminal and `json` anywhere else. */
export const LOG_FORMATS = ['auto', 'pretty', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** Where a logger writes one line at a time (pino calls `write` once per line). */
export interface LogDestination {
  write(line: string): unknown;
}

export interface LoggerOptions {
  level?: LogLevel;
  name?: string;
  /** Where lines go; defaults to stderr, so a program's own output on stdout stays clean. */
  destination?: LogDestination;
}

/**
 * A pino logger writing one JSON object a line, with `"time"` in ISO 8601 and `"level"` by name
 * (`"info"`, not 30): log collectors and people read those without pino's tables.
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  return pino(
    {
      level: options.level ?? 'info',
      name: options.name,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    (options.destination ?? process.stderr) as pino.DestinationStream,
  );
}

/** Tests and embedders that want no output. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
