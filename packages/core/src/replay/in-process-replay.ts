import type { Clock } from '../clock';
import type { Logger } from '../logger';
import type { SimulatorSettings } from '../settings';
import { localDate, rebaseDates } from './rebase-dates';
import type { RecordedMessage } from './recording-types';
import { createReplayer, type ReplaySchedule, type Replayer } from './replayer';

export type InProcessReplaySettings = Pick<
  SimulatorSettings,
  'autoReplayIntervalMs' | 'initialDelayMs' | 'maxDelayMs' | 'replayRebaseDates'
>;

export interface InProcessReplayOptions<M extends RecordedMessage> {
  settings: InProcessReplaySettings;
  recordings: readonly M[];
  clock: Clock;
  logger?: Logger;
  /** The simulator's own publish path, so replayed messages are filtered like injected ones. */
  deliver: (message: M) => void;
}

/**
 * How a simulator replays its recordings, if at all:
 * - AUTO_REPLAY_MESSAGE_INTERVAL (interface 4.6 rule 6): one message per interval, the first
 *   after INITIAL_DELAY (default: the interval);
 * - else MAX_DELAY: the recorded gaps, each capped at MAX_DELAY, as the vendor's replay
 *   container does, but without a second container.
 * Both loop at the end of the recording.
 */
export function inProcessReplaySchedule(settings: InProcessReplaySettings): ReplaySchedule | undefined {
  const initial = settings.initialDelayMs !== undefined ? { initialDelayMs: settings.initialDelayMs } : {};
  if (settings.autoReplayIntervalMs !== undefined) {
    return { mode: 'interval', intervalMs: settings.autoReplayIntervalMs, ...initial };
  }
  if (settings.maxDelayMs !== undefined)
    return { mode: 'timed', maxDelayMs: settings.maxDelayMs, ...initial };
  return undefined;
}

/** The simulator's own replay of its recordings; undefined when replay is off or nothing is recorded. */
export function createInProcessReplay<M extends RecordedMessage>(
  options: InProcessReplayOptions<M>,
): Replayer | undefined {
  const { settings, clock } = options;
  const schedule = inProcessReplaySchedule(settings);
  if (schedule === undefined || options.recordings.length === 0) return undefined;
  const messages = settings.replayRebaseDates
    ? rebaseDates(options.recordings, localDate(clock.now()))
    : options.recordings;
  return createReplayer({
    messages,
    schedule,
    loop: true,
    clock,
    ...(options.logger && { logger: options.logger }),
    deliver: options.deliver,
  });
}
