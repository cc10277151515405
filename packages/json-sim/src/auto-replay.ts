import {
  createReplayer,
  localDate,
  rebaseDates,
  type Clock,
  type Logger,
  type PublishResult,
  type RecordedJsonMessage,
  type Replayer,
  type SimulatorSettings,
} from '@racedata/core';

export interface AutoReplayDeps {
  settings: Pick<SimulatorSettings, 'autoReplayIntervalMs' | 'initialDelayMs' | 'replayRebaseDates'>;
  recordings: readonly RecordedJsonMessage[];
  clock: Clock;
  logger: Logger;
  publish: (message: RecordedJsonMessage['message']) => PublishResult;
}

/**
 * AUTO_REPLAY_MESSAGE_INTERVAL (interface 4.6 rule 6): one recorded message per interval through
 * the same path as POST /api/message, looping at the end. Undefined when replay is off.
 */
export function createAutoReplay(deps: AutoReplayDeps): Replayer | undefined {
  const { settings, clock, logger } = deps;
  if (settings.autoReplayIntervalMs === undefined || deps.recordings.length === 0) return undefined;
  const messages = settings.replayRebaseDates
    ? rebaseDates(deps.recordings, localDate(clock.now()))
    : deps.recordings;
  return createReplayer({
    messages,
    schedule: {
      mode: 'interval',
      intervalMs: settings.autoReplayIntervalMs,
      ...(settings.initialDelayMs !== undefined && { initialDelayMs: settings.initialDelayMs }),
    },
    loop: true,
    clock,
    logger,
    deliver: (recorded) => {
      deps.publish(recorded.message);
    },
  });
}
