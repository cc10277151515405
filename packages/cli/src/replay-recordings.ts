import {
  coreError,
  formatProblem,
  inProcessReplaySchedule,
  loadRecordings,
  type ChannelCatalog,
  type Logger,
  type RecordedMessageOf,
  type SimulatorKind,
  type SimulatorSettings,
} from '@racedata/core';
import { bundledRecordingsDir } from './bundled-recordings';

/**
 * Loads the recordings a simulator replays in-process (AUTO_REPLAY_MESSAGE_INTERVAL or
 * MAX_DELAY), or
 * nothing when replay is off. A directory that yields no playable message stops the start:
 * replay was asked for and could never happen.
 */
export async function recordingsForReplay<K extends SimulatorKind>(
  kind: K,
  settings: SimulatorSettings,
  catalog: ChannelCatalog,
  logger: Logger,
): Promise<RecordedMessageOf<K>[] | undefined> {
  const schedule = inProcessReplaySchedule(settings);
  if (schedule === undefined) return undefined;
  const dir = settings.recordingsDir ?? bundledRecordingsDir();
  if (dir === undefined) {
    throw coreError('RECORDING_INVALID', 'replay is on but no RECORDINGS_DIR was given');
  }
  const loaded = await loadRecordings(dir, kind, { catalog, logger });
  for (const problem of loaded.problems)
    logger.warn({ problem: formatProblem(problem) }, 'recording refused');
  if (loaded.messages.length === 0) {
    const why =
      loaded.problems.length > 0 ? `; refused: ${loaded.problems.map(formatProblem).join('; ')}` : '';
    throw coreError('RECORDING_INVALID', `RECORDINGS_DIR ${dir}: no playable ${kind} recording${why}`);
  }
  logger.info(
    { dir, files: loaded.files.length, messages: loaded.messages.length, ...schedule },
    `${schedule.mode} replay on`,
  );
  return loaded.messages;
}
