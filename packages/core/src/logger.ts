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

export interface LoggerOptions {
  level?: LogLevel;
  name?: string;
  /** Where lines go; defaults to stdout. */
  destination?: NodeJS.WritableStream;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const opts = { level: options.level ?? 'info', name: options.name, base: undefined };
  return options.destination ? pino(opts, options.destination) : pino(opts);
}

/** Tests and embedders that want no output. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
