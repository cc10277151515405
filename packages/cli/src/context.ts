/**
 * What a CLI command may touch of the outside world. main() builds it from the real process;
 * tests hand in their own streams and environment.
 */
export interface CliContext {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  /**
   * Prints to stdout at once, as stdout.write would: the real process does so without building
   * its stdout stream (stdout-print.ts). A simulator's start prints its banner with it. Tests
   * leave it unset, and what it prints goes to `stdout`.
   */
  print?(text: string): void;
  /**
   * The real process: log lines may be held a few milliseconds and written to stderr together
   * (held-lines.ts). Tests that read stderr as soon as something happened leave it unset.
   */
  readonly holdLogLines?: boolean;
  /**
   * A simulator of this kind listens. The real process tells the npm bin's code cache
   * (packages/cli/bin/code-cache.js), which covers the starts a run actually made.
   */
  started?(kind: 'json' | 'legacy'): void;
  /** Ends the process (or, in tests, records the code). */
  exit(code: number): void;
  /** Runs the handler once on SIGTERM or SIGINT. */
  onShutdownSignal(handler: (signal: string) => void): void;
}
