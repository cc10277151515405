import type { CliContext } from './context';
import { exitCodeOf } from './errors';
import { plainStart } from './plain-start';
import { runStartCommand } from './start-commands';
import { stdoutPrinter } from './stdout-print';

/**
 * Runs the command line; configuration errors print one line and exit 2. A plain simulator
 * start (plain-start.ts) runs without loading commander; everything else goes through the
 * whole program (program.ts).
 */
export async function run(argv: readonly string[], ctx: CliContext): Promise<void> {
  try {
    const plain = plainStart(argv.slice(2));
    if (plain) await runStartCommand(ctx, plain.command, plain.flags);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    else await (require('./program') as typeof import('./program')).runProgram(argv, ctx);
  } catch (err) {
    ctx.stderr.write(`racedata-sim: ${(err as Error).message}\n`);
    ctx.exit(exitCodeOf(err));
  }
}

export function processContext(env: NodeJS.ProcessEnv): CliContext {
  let stdout: NodeJS.WritableStream | undefined;
  // Node builds process.stdout on first use; a simulator's start prints its banner without it.
  const stdoutStream = () => {
    if (stdout) return stdout;
    // `racedata-sim --help | head` or a reader of the banner that went away: what was printed
    // is lost, which is no reason to crash (a running simulator keeps serving).
    process.stdout.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE') throw err;
    });
    return (stdout = process.stdout);
  };
  return {
    env,
    get stdout() {
      return stdoutStream();
    },
    print: stdoutPrinter({ fd: 1, stream: stdoutStream }),
    // Node builds process.stderr on first use; a start that logs nothing never needs it.
    get stderr() {
      return process.stderr;
    },
    holdLogLines: true,
    // The event packages/cli/bin/code-cache.js listens for (its STARTED).
    started: (kind) => (process as NodeJS.EventEmitter).emit('racedata-sim:started', kind),
    exit: (code) => process.exit(code),
    onShutdownSignal(handler) {
      let signalled = false;
      const onSignal = (signal: NodeJS.Signals) => {
        // A second signal means the user is done waiting.
        if (signalled) process.exit(130);
        signalled = true;
        handler(signal);
      };
      process.on('SIGTERM', onSignal);
      process.on('SIGINT', onSignal);
    },
  };
}

export function main(argv: readonly string[], env: NodeJS.ProcessEnv): void {
  void run(argv, processContext(env));
}
