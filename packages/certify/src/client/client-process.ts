import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { TrafficEvent } from '../types';

export interface ClientProcessOptions {
  /** Resolved already (resolveCommand). */
  readonly command: string;
  readonly args: readonly string[];
  /** The whole environment of the client: what it inherits plus the RACEDATA_* variables. */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd?: string;
  /** Records its stdout lines as `client-line` events (--echo stdout). */
  readonly echo: boolean;
  readonly record: (event: TrafficEvent) => void;
  readonly now: () => number;
  /** After SIGTERM, how long before SIGKILL (5 s, as the issue says). */
  readonly killAfterMs?: number;
  /** Every stdout and stderr line, for a caller that shows them (--verbose). */
  readonly onOutput?: (stream: 'stdout' | 'stderr', line: string) => void;
}

export interface ClientExit {
  readonly at: number;
  readonly code: number | null;
  readonly signal: string | null;
  /** Set when it never started (spawn failed). */
  readonly error?: string;
}

/** How much a client printed so far. */
export interface ClientOutput {
  readonly stdoutLines: number;
  /** Characters, line ends included. */
  readonly stdoutChars: number;
  readonly stderrLines: number;
  readonly stderrChars: number;
}

export interface ClientProcess {
  readonly pid: number | undefined;
  readonly startedAt: number;
  /** How much it printed: a client that floods its output is told so when it makes no request. */
  output(): ClientOutput;
  /** Resolves once, when the process has ended (or failed to start). */
  readonly exited: Promise<ClientExit>;
  /** Its last stderr lines, for the report of a client that ended early. */
  stderrTail(): string[];
  /** SIGTERM, then SIGKILL after killAfterMs; resolves when it has ended. */
  stop(): Promise<ClientExit>;
}

const STDERR_LINES = 20;
const LINE_MAX = 500;
const OUTPUT_DRAIN_MS = 250;

/**
 * Runs the client in its own process group, so stopping it also stops what it started (a
 * `npx tsx client.ts` is three processes), and never leaves it running once certify is done.
 */
export function startClient(options: ClientProcessOptions): ClientProcess {
  const startedAt = options.now();
  const tail: string[] = [];
  const printed = { stdoutLines: 0, stdoutChars: 0, stderrLines: 0, stderrChars: 0 };
  const child: ChildProcess = spawn(options.command, [...options.args], {
    env: options.env as NodeJS.ProcessEnv,
    cwd: options.cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const exited = new Promise<ClientExit>((resolve) => {
    child.once('error', (err) => {
      // A spawn that failed emits no 'exit'; one that ran emits 'exit' and maybe 'error' later.
      if (child.pid === undefined)
        resolve({ at: options.now(), code: null, signal: null, error: err.message });
    });
    // 'close' comes once its output is all read, so the stderr tail is complete; a grandchild
    // that keeps the pipes open must not hold the verdict, hence the short wait after 'exit'.
    child.once('exit', (code, signal) => {
      const at = options.now();
      const done = () => resolve({ at, code, signal });
      const late = setTimeout(done, OUTPUT_DRAIN_MS);
      child.once('close', () => {
        clearTimeout(late);
        done();
      });
    });
  }).then((exit) => {
    options.record({ kind: 'client-exit', at: exit.at, code: exit.code, signal: exit.signal });
    return exit;
  });
  if (child.stdout) {
    createInterface({ input: child.stdout, crlfDelay: Infinity }).on('line', (line) => {
      printed.stdoutLines++;
      printed.stdoutChars += line.length + 1;
      options.onOutput?.('stdout', line);
      const trimmed = line.trim();
      if (options.echo && trimmed !== '') {
        options.record({ kind: 'client-line', at: options.now(), line: trimmed.slice(0, LINE_MAX) });
      }
    });
  }
  if (child.stderr) {
    createInterface({ input: child.stderr, crlfDelay: Infinity }).on('line', (line) => {
      printed.stderrLines++;
      printed.stderrChars += line.length + 1;
      options.onOutput?.('stderr', line);
      tail.push(line.slice(0, LINE_MAX));
      if (tail.length > STDERR_LINES) tail.shift();
    });
  }
  let stopping: Promise<ClientExit> | undefined;
  const signal = (name: NodeJS.Signals, evenAfterExit = false) => {
    if (child.pid === undefined) return;
    if (!evenAfterExit && (child.exitCode !== null || child.signalCode !== null)) return;
    try {
      process.kill(-child.pid, name);
    } catch {
      // The group is gone already (its leader exited between the check and the kill).
    }
  };
  return {
    pid: child.pid,
    startedAt,
    output: () => ({ ...printed }),
    exited,
    stderrTail: () => [...tail],
    stop: () => {
      stopping ??= (async () => {
        signal('SIGTERM');
        const timer = setTimeout(() => signal('SIGKILL'), options.killAfterMs ?? 5_000);
        const exit = await exited;
        clearTimeout(timer);
        // Whatever the client started and left behind in its group goes with it.
        signal('SIGKILL', true);
        return exit;
      })();
      return stopping;
    },
  };
}
