import { isSimError } from '@racedata/core';

/** Exit code for bad flags, environment values or configuration files: retrying cannot help. */
export const EXIT_BAD_CONFIG = 2;
/** Exit code for anything else that stops a command. */
export const EXIT_FAILED = 1;

/**
 * The CLI's error catalog: every code a command can end on, with the exit code it ends with.
 * Core's configuration codes are listed for their exit code (core words their messages); the
 * CLI's own codes carry their message template, so CliError needs only the code and the facts.
 */
export const cliErrors = {
  CONFIG_INVALID: { exitCode: EXIT_BAD_CONFIG },
  USERS_INVALID: { exitCode: EXIT_BAD_CONFIG },
  CHANNELS_INVALID: { exitCode: EXIT_BAD_CONFIG },
  RECORDING_INVALID: { exitCode: EXIT_BAD_CONFIG },
  /** A race-day option that is malformed, out of range or names a race the day does not have. */
  RACE_DAY_INVALID: { exitCode: EXIT_BAD_CONFIG },
  RACE_DAY_NO_SUCH_RACE: { exitCode: EXIT_BAD_CONFIG },
  TARGET_UNREACHABLE: {
    exitCode: EXIT_FAILED,
    message: (p: { target: string; waitedMs: number; lastReason: string }) =>
      `target ${p.target} not healthy after waiting ${p.waitedMs} ms (last attempt: ${p.lastReason})`,
  },
  /** A 4xx: the target will never take this message, so it is not retried. */
  POST_REJECTED: {
    exitCode: EXIT_FAILED,
    message: (p: { status: number; detail: string }) =>
      `rejected with HTTP ${p.status}${p.detail ? `: ${p.detail}` : ''}`,
  },
  /** --seed names a file that cannot be read or holds a line that is not a durable event. */
  SEED_INVALID: {
    exitCode: EXIT_BAD_CONFIG,
    message: (p: { source: string; detail: string }) => `--seed ${p.source}: ${p.detail}`,
  },
  /** Raised by waits and requests once the replay is being shut down; the stop was asked for. */
  REPLAY_ABORTED: { exitCode: 0, message: (_p: Record<string, never>) => 'replay stopped' },
} as const;

type Catalog = typeof cliErrors;
type Templated = {
  [C in keyof Catalog as Catalog[C] extends { message: (p: never) => string } ? C : never]: Catalog[C];
};
export type CliErrorCode = keyof Templated;
type ParamsOf<C extends CliErrorCode> = Templated[C] extends { message: (p: infer P) => string } ? P : never;

export class CliError<C extends CliErrorCode = CliErrorCode> extends Error {
  constructor(
    readonly code: C,
    params: ParamsOf<C>,
    options?: ErrorOptions,
  ) {
    super((cliErrors[code].message as (p: unknown) => string)(params), options);
    this.name = 'CliError';
  }
}

export function isCliError<C extends CliErrorCode>(err: unknown, code: C): err is CliError<C> {
  return err instanceof CliError && err.code === code;
}

/** The exit code an error ends the process with: the catalog's, or EXIT_FAILED if it is not listed. */
export function exitCodeOf(err: unknown): number {
  const code: string | undefined = isSimError(err) || err instanceof CliError ? err.code : undefined;
  return code !== undefined && Object.hasOwn(cliErrors, code)
    ? cliErrors[code as keyof Catalog].exitCode
    : EXIT_FAILED;
}
