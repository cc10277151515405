import type { Command } from 'commander';
import { systemClock, type Clock, type Logger } from '@racedata/core';
import { bundledRecordingsDir } from '../bundled-recordings';
import type { CliContext } from '../context';
import { EXIT_BAD_CONFIG, exitCodeOf } from '../errors';
import { cliLogger } from '../log-output';
import { addReplayOptions, resolveReplayOptions } from './replay-options';
import { runReplay } from './replay-run';
import type { FetchFn } from './target-http';

/** What tests swap out; the real command uses the system clock, global fetch and a pino logger. */
export interface ReplayCommandDeps {
  readonly clock?: Clock;
  readonly fetch?: FetchFn;
  readonly logger?: Logger;
}

/**
 * `racedata-sim replay`: the replay container. Posts recorded messages to a running simulator
 * through its injection endpoints, with their recorded timing (or one per interval).
 */
export function registerReplayCommand(program: Command, ctx: CliContext, deps: ReplayCommandDeps = {}): void {
  const command = program
    .command('replay')
    .description('post recorded messages to a running simulator (legacy on 8080 or JSON on 3000)');
  addReplayOptions(command).action(async (flags: Record<string, unknown>) => {
    let code: number;
    try {
      const options = resolveReplayOptions(flags, ctx.env);
      const logger =
        deps.logger ?? cliLogger(ctx, { level: options.logLevel, format: options.logFormat, name: 'replay' });
      code = await runReplay(
        { ...options, recordingsDir: options.recordingsDir ?? bundledRecordingsDir() },
        {
          clock: deps.clock ?? systemClock,
          fetch: deps.fetch ?? globalThis.fetch,
          logger,
          stdout: ctx.stdout,
          stderr: ctx.stderr,
          onShutdown: (handler) => ctx.onShutdownSignal(handler),
        },
      );
    } catch (err) {
      if (exitCodeOf(err) !== EXIT_BAD_CONFIG) throw err;
      ctx.stderr.write(`racedata-sim replay: ${(err as Error).message}\n`);
      code = EXIT_BAD_CONFIG;
    }
    ctx.exit(code);
  });
}
