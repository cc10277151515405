import type { Clock } from '../clock';
import type { Logger } from '../logger';
import type { SimulatorSettings } from '../settings';
import { localDate, rebaseDates } from './rebase-dates';
import type { RecordedMessage } from './recording-types';
import { createReplayer, type Replayer } from './replayer';

export interface IntervalReplayOptions<M extends RecordedMessage> {
  settings: Pick<SimulatorSettings, 'autoReplayIntervalMs' | 'initialDelayMs' | 'replayRebaseDates'>;
  recordings: readonly M[];
  clock: Clock;
  logger?: Logger;
  /** The simulator's own publish path, so replayed messages are filtered like injected ones. */
  deliver: (message: M) => void;
}

/**
 * AUTO_REPLAY_MESSAGE_INTERVAL (interface 4.6 rule 6) inside a simulator: one recorded message
 * per interval, the first after INITIAL_DELAY (default: the interval), looping at the end.
 * Undefined when replay is off or there is nothing to play.
 */
export function createIntervalReplay<M extends RecordedMessage>(
  options: IntervalReplayOptions<M>,
): Replayer | undefined {
  const { settings, clock } = options;
  if (settings.autoReplayIntervalMs === undefined || options.recordings.length === 0) return undefined;
  const messages = settings.replayRebaseDates
    ? rebaseDates(options.recordings, localDate(clock.now()))
    : options.recordings;
  return createReplayer({
    messages,
    schedule: {
      mode: 'interval',
      intervalMs: settings.autoReplayIntervalMs,
      ...(settings.initialDelayMs !== undefined && { initialDelayMs: settings.initialDelayMs }),
    },
    loop: true,
    clock,
    ...(options.logger && { logger: options.logger }),
    deliver: options.deliver,
  });
}
