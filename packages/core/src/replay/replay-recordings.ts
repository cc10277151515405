import type { ChannelCatalog } from '../channel-catalog';
import { coreError } from '../errors';
import type { Logger } from '../logger';
import type { SimulatorKind } from '../description';
import type { SimulatorSettings } from '../settings';
import { inProcessReplaySchedule } from './in-process-replay';
import { loadRecordings } from './recording-loader';
import { formatProblem, type RecordedMessageOf } from './recording-types';

/**
 * Loads the recordings a simulator replays in-process (AUTO_REPLAY_MESSAGE_INTERVAL or
 * MAX_DELAY). RECORDINGS_DIR wins over `defaultDir` (where the caller finds the recordings
 * shipped with the project: only it knows where it was installed). With replay off they are still
 * loaded when there are any: the console's post forms take their samples from them, and the
 * console and sandboxes can start a replay later; nothing there is an error then. With replay on,
 * a directory that yields no playable message stops the start: replay was asked for and could
 * never happen.
 */
export async function recordingsForReplay<K extends SimulatorKind>(
  kind: K,
  settings: SimulatorSettings,
  catalog: ChannelCatalog,
  logger: Logger,
  defaultDir: string | undefined,
): Promise<RecordedMessageOf<K>[] | undefined> {
  const schedule = inProcessReplaySchedule(settings);
  if (schedule === undefined) return recordingsForConsole(kind, settings, catalog, logger, defaultDir);
  const dir = settings.recordingsDir ?? defaultDir;
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

async function recordingsForConsole<K extends SimulatorKind>(
  kind: K,
  settings: SimulatorSettings,
  catalog: ChannelCatalog,
  logger: Logger,
  defaultDir: string | undefined,
): Promise<RecordedMessageOf<K>[] | undefined> {
  const dir = settings.recordingsDir ?? defaultDir;
  if (dir === undefined) return undefined;
  try {
    // No logger: a recording the catalog refuses only matters when replay was asked for.
    const loaded = await loadRecordings(dir, kind, { catalog });
    return loaded.messages.length > 0 ? loaded.messages : undefined;
  } catch (err) {
    logger.debug({ dir, err }, 'no recordings for the console samples');
    return undefined;
  }
}
