import { promises as fs } from 'node:fs';
import {
  coreError,
  createReplayer,
  formatProblem,
  loadRecordings,
  localDate,
  rebaseDates,
  type Clock,
  type Logger,
  type RecordedMessage,
  type RecordingKind,
  type ReplayStats,
} from '@racedata/core';
import { createPoster } from './message-poster';
import type { ReplayOptions } from './replay-options';
import { isCliError } from '../errors';
import { waitForTarget } from './target-health';
import type { FetchFn } from './target-http';

export const EXIT_REPLAY_OK = 0;
/** The target never became healthy, or took none of the messages. */
export const EXIT_REPLAY_FAILED = 1;

export interface ReplayRunDeps {
  readonly clock: Clock;
  readonly fetch: FetchFn;
  readonly logger: Logger;
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  /** Registers what a shutdown signal should do. */
  readonly onShutdown: (handler: () => void) => void;
}

function describeSchedule(options: ReplayOptions): string {
  const s = options.schedule;
  const timing =
    s.mode === 'interval'
      ? `one message every ${s.intervalMs} ms`
      : `recorded timing${s.maxDelayMs === undefined ? '' : `, gaps capped at ${s.maxDelayMs} ms`}`;
  return `${timing}${options.loop ? ', looping' : ''}`;
}

function progressLine(stats: ReplayStats, loop: boolean): string {
  const loops = loop ? `, loop ${stats.loops + 1}` : '';
  return `replay: ${stats.position}/${stats.total}${loops}, sent ${stats.sent}, failed ${stats.failed}\n`;
}

async function load(dir: string, kind: RecordingKind, deps: ReplayRunDeps): Promise<RecordedMessage[]> {
  const loaded = await loadRecordings(dir, kind, { logger: deps.logger });
  for (const problem of loaded.problems) deps.stderr.write(`recording refused: ${formatProblem(problem)}\n`);
  if (loaded.messages.length === 0) {
    throw coreError(
      'RECORDING_INVALID',
      `RECORDINGS_DIR (--recordings): no playable ${kind} recording in ${dir}`,
    );
  }
  deps.logger.info({ dir, files: loaded.files, messages: loaded.messages.length }, 'recordings loaded');
  return loaded.messages;
}

/**
 * `racedata-sim replay` from parsed options to exit code: wait for the target, load the
 * recordings of its kind, post them on schedule, report progress. Configuration problems throw
 * CONFIG_INVALID / RECORDING_INVALID for the caller to turn into exit code 2.
 */
export async function runReplay(options: ReplayOptions, deps: ReplayRunDeps): Promise<number> {
  const { clock, logger, stdout, stderr } = deps;
  const dir = options.recordingsDir;
  if (dir === undefined) throw coreError('CONFIG_INVALID', 'RECORDINGS_DIR (--recordings) is required');
  if (!(await fs.stat(dir).catch(() => undefined))) {
    throw coreError('CONFIG_INVALID', `RECORDINGS_DIR (--recordings): ${dir} does not exist`);
  }
  const shutdown = new AbortController();
  let stopReplayer = (): Promise<void> => Promise.resolve();
  deps.onShutdown(() => {
    shutdown.abort();
    void stopReplayer();
  });
  // With the kind known, broken recordings are reported before any waiting.
  let messages = options.kind === undefined ? undefined : await load(dir, options.kind, deps);

  stdout.write(`replay: waiting up to ${options.waitTimeoutMs} ms for ${options.target}/health\n`);
  let simulator: RecordingKind | undefined;
  try {
    ({ simulator } = await waitForTarget(options.target, {
      fetch: deps.fetch,
      clock,
      waitTimeoutMs: options.waitTimeoutMs,
      logger,
      signal: shutdown.signal,
    }));
  } catch (err) {
    if (shutdown.signal.aborted) return EXIT_REPLAY_OK;
    if (!isCliError(err, 'TARGET_UNREACHABLE')) throw err;
    stderr.write(`racedata-sim replay: ${err.message}\n`);
    return EXIT_REPLAY_FAILED;
  }
  if (options.kind !== undefined && simulator !== undefined && simulator !== options.kind) {
    throw coreError(
      'CONFIG_INVALID',
      `REPLAY_KIND (--kind) is ${options.kind} but the target is a ${simulator} simulator`,
    );
  }
  const kind = options.kind ?? simulator;
  if (kind === undefined) {
    throw coreError(
      'CONFIG_INVALID',
      `the target's /health does not name its simulator; pass --kind legacy or --kind json`,
    );
  }
  messages ??= await load(dir, kind, deps);
  if (options.rebaseDates) messages = rebaseDates(messages, localDate(clock.now()));
  if (shutdown.signal.aborted) return EXIT_REPLAY_OK;

  stdout.write(
    `replay: ${messages.length} ${kind} messages to ${options.target}, ${describeSchedule(options)}\n`,
  );
  const poster = createPoster({
    target: options.target,
    fetch: deps.fetch,
    clock,
    retries: options.retries,
    logger,
    signal: shutdown.signal,
  });
  const replayer = createReplayer({
    messages,
    schedule: options.schedule,
    loop: options.loop,
    clock,
    logger,
    deliver: poster,
  });
  stopReplayer = () => replayer.stop();
  const progress =
    options.progressIntervalMs > 0
      ? clock.setInterval(
          () => stdout.write(progressLine(replayer.stats(), options.loop)),
          options.progressIntervalMs,
        )
      : undefined;
  replayer.start();
  await replayer.done;
  progress?.cancel();
  const stats = replayer.stats();
  const how = shutdown.signal.aborted ? 'stopped' : 'finished';
  stdout.write(
    `replay ${how}: sent ${stats.sent}, failed ${stats.failed}, position ${stats.position}/${stats.total}\n`,
  );
  return stats.sent === 0 && stats.failed > 0 ? EXIT_REPLAY_FAILED : EXIT_REPLAY_OK;
}
