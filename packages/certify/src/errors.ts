/** Exit code for a usage error (an unknown suite, a bad --only id, a command that is not there). */
export const EXIT_USAGE = 2;
/** Exit code for a run in which a required check failed, or that could not run at all. */
export const EXIT_FAILED = 1;

/**
 * The certify error catalog: every code a certification can stop on before it grades anything,
 * with its exit code and message. No template takes a credential.
 */
export const certifyErrors = {
  UNKNOWN_SUITE: {
    exitCode: EXIT_USAGE,
    message: (p: { suite: string; known: readonly string[] }) =>
      `unknown suite "${p.suite}" (expected one of: ${p.known.join(', ')})`,
  },
  UNKNOWN_CHECK: {
    exitCode: EXIT_USAGE,
    message: (p: { option: string; id: string; known: readonly string[]; elsewhere?: string }) =>
      `${p.option}: no check "${p.id}" in this run${p.elsewhere ? `: ${p.elsewhere}` : ''} ` +
      `(checks: ${p.known.length > 0 ? p.known.join(', ') : 'none'})`,
  },
  EXPECTED_FAILURES_UNREADABLE: {
    exitCode: EXIT_USAGE,
    message: (p: { file: string; detail: string }) => `--expected-failures ${p.file}: ${p.detail}`,
  },
  CLIENT_NOT_FOUND: {
    exitCode: EXIT_USAGE,
    message: (p: { command: string; detail: string }) => `client command "${p.command}" ${p.detail}`,
  },
  OPTIONS_INVALID: { exitCode: EXIT_USAGE, message: (p: { detail: string }) => p.detail },
  /** --attach --port N: the port is taken or cannot be bound. */
  PORT_UNAVAILABLE: {
    exitCode: EXIT_FAILED,
    message: (p: { port: number; detail: string }) => `cannot serve on port ${p.port}: ${p.detail}`,
  },
  /** A /_sim/* call a scenario made failed: graded as that scenario's failure, not a crash. */
  CONTROL_CALL_FAILED: {
    exitCode: EXIT_FAILED,
    message: (p: { call: string; detail: string }) => `control call ${p.call} failed: ${p.detail}`,
  },
  REPORT_UNWRITABLE: {
    exitCode: EXIT_FAILED,
    message: (p: { file: string; detail: string }) => `cannot write ${p.file}: ${p.detail}`,
  },
} as const;

type Catalog = typeof certifyErrors;
export type CertifyErrorCode = keyof Catalog;
type ParamsOf<C extends CertifyErrorCode> = Parameters<Catalog[C]['message']>[0];

export class CertifyError<C extends CertifyErrorCode = CertifyErrorCode> extends Error {
  readonly exitCode: number;

  constructor(
    readonly code: C,
    params: ParamsOf<C>,
    options?: ErrorOptions,
  ) {
    super((certifyErrors[code].message as (p: unknown) => string)(params), options);
    this.name = 'CertifyError';
    this.exitCode = certifyErrors[code].exitCode;
  }
}

export function isCertifyError(err: unknown): err is CertifyError {
  return err instanceof CertifyError;
}
