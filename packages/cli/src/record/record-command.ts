import { randomBytes } from 'node:crypto';
import type { Command } from 'commander';
import { isSimError, systemClock, type Clock, type Logger } from '@racedata/core';
import {
  isRecorderError,
  createAnonymiser,
  startRecording,
  summaryText,
  type FetchFn,
  type Anonymiser,
} from '@racedata/recorder';
import type { CliContext } from '../context';
import { EXIT_BAD_CONFIG, EXIT_FAILED } from '../errors';
import { cliLogger } from '../log-output';
import { addRecordOptions, resolveRecordOptions, type RecordCliOptions } from './record-options';
import { startProgress } from './record-progress';

/** What tests swap out; the real command uses the system clock, global fetch and a pino logger. */
export interface RecordCommandDeps {
  readonly clock?: Clock;
  readonly fetch?: FetchFn;
  readonly logger?: Logger;
}

function transformerFor(
  options: RecordCliOptions,
  logger: Logger,
): { transformer?: Anonymiser; salt?: string } {
  if (!options.anonymise && options.redact.length === 0) return {};
  let salt = options.salt;
  if (options.anonymise && salt === undefined) {
    salt = randomBytes(16).toString('hex');
    logger.warn(
      'no --salt: the pseudonyms of this run differ from any other run; give --salt to keep them the same',
    );
  }
  const transformer = createAnonymiser({
    salt: salt ?? '',
    anonymiseNames: options.anonymise,
    redact: options.redact,
  });
  return { transformer, ...(salt !== undefined && { salt }) };
}

/**
 * `racedata-sim record`: records the customer interface (JSON, legacy, or both) into a
 * recordings directory that `--recordings` replays. Progress and the summary go to stdout, logs
 * to stderr; SIGINT or SIGTERM ends it cleanly.
 */
export function registerRecordCommand(program: Command, ctx: CliContext, deps: RecordCommandDeps = {}): void {
  const command = program
    .command('record')
    .description(
      'record a live feed (all four transports) into a recordings directory that --recordings replays',
    );
  addRecordOptions(command).action(async (flags: Record<string, unknown>) => {
    let code = 0;
    try {
      const options = resolveRecordOptions(flags, ctx.env);
      const logger =
        deps.logger ?? cliLogger(ctx, { level: options.logLevel, format: options.logFormat, name: 'record' });
      const { transformer, salt } = transformerFor(options, logger);
      const recording = await startRecording(
        {
          outDir: options.out,
          jsonUrl: options.jsonUrl,
          legacyUrl: options.legacyUrl,
          key: options.key,
          secret: options.secret,
          transports: options.transports,
          fromEventId: options.fromEventId,
          durationMs: options.durationMs,
          longPollTimeoutMs: options.longPollTimeoutMs,
          transformer,
          secrets: salt === undefined ? [] : [salt],
        },
        { clock: deps.clock ?? systemClock, logger, ...(deps.fetch && { fetch: deps.fetch }) },
      );
      ctx.onShutdownSignal(() => void recording.stop());
      const progress = startProgress(ctx.stdout, options.progressIntervalMs, () => recording.progress());
      try {
        const summary = await recording.finished.finally(() => progress.stop());
        ctx.stdout.write(`${summaryText(summary)}\n`);
      } catch (err) {
        ctx.stdout.write(`${summaryText(recording.progress())}\n`);
        throw err;
      }
    } catch (err) {
      if (isRecorderError(err)) code = err.exitCode;
      else if (isSimError(err) && err.code === 'CONFIG_INVALID') code = EXIT_BAD_CONFIG;
      else throw err;
      ctx.stderr.write(`racedata-sim record: ${(err as Error).message}\n`);
      if (code === 0) code = EXIT_FAILED;
    }
    ctx.exit(code);
  });
}
