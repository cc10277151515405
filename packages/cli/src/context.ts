/**
 * What a CLI command may touch of the outside world. main() builds it from the real process;
 * tests hand in their own streams and environment.
 */
export interface CliContext {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  /** Ends the process (or, in tests, records the code). */
  exit(code: number): void;
  /** Runs the handler once on SIGTERM or SIGINT. */
  onShutdownSignal(handler: (signal: string) => void): void;
}
