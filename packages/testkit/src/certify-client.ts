import { certify as runCertification, type Report, type Suite } from '@racedata/certify';

/** What certify() resolves to: the JSON report of `racedata-sim certify --report`. */
export type CertifyReport = Report;

export interface CertifyClientOptions {
  /** `events`, `stream`, `listen`, `stomp`, or `all`. */
  readonly suite: Suite | 'all';
  /** The client command (a path, or a name on PATH) and its arguments. */
  readonly command: string;
  readonly args?: readonly string[];
  /**
   * Variables added to the client's environment. The client inherits the test process's own
   * environment, as a child process does (PATH finds `node`), plus these and RACEDATA_*.
   */
  readonly env?: Readonly<Record<string, string>>;
  /** The whole run's limit; past it unfinished checks fail (default 120 s a suite). */
  readonly timeoutMs?: number;
  /** The client prints one id or payloadKey a line per message it processed (--echo stdout). */
  readonly echo?: boolean;
  /** Play only these check ids (`suite/id` in `all`). */
  readonly only?: readonly string[];
  /** Check ids that may fail without counting in `failed`. */
  readonly expectedFailures?: readonly string[];
  readonly cwd?: string;
  /** Stops the client and resolves with the partial report. */
  readonly signal?: AbortSignal;
}

/**
 * `racedata-sim certify` from a test: resolves to the report (its `failed` is what the command's
 * exit code comes from). Rejects only for a usage error (a CertifyError: unknown suite or check
 * id, a command that does not exist), before anything starts.
 */
export function certify(options: CertifyClientOptions): Promise<Report> {
  return runCertification({
    suite: options.suite,
    client: {
      command: options.command,
      args: options.args ?? [],
      env: { ...process.env, ...options.env },
      ...(options.cwd !== undefined && { cwd: options.cwd }),
    },
    ...(options.echo !== undefined && { echo: options.echo }),
    ...(options.only && { only: options.only }),
    ...(options.expectedFailures && { expectedFailures: options.expectedFailures }),
    ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
    ...(options.signal && { signal: options.signal }),
  });
}
