import {
  type ChannelCatalog,
  inProcessReplaySchedule,
  subscribes,
  type RecordedMessage,
  type SimulatorSettings,
  type User,
  type UserTable,
} from '@racedata/core';

/** What the hint reads of a started simulator (next-steps.ts' Started has it all). */
interface StreamHintInput {
  readonly settings: SimulatorSettings;
  readonly catalog: ChannelCatalog;
  readonly users: UserTable;
  readonly replayed: readonly RecordedMessage[];
}

function channelOf(message: RecordedMessage): string {
  return message.kind === 'json' ? message.message.channel : message.channel;
}

/**
 * The user whose first transient message the replay sends soonest, and when (interval replay).
 * A bundled race day opens with durable messages: the default JSON user's first transient one
 * comes some 900 messages in, a quarter of an hour at one a second, while another's comes in
 * seconds, so the hint shows the stream as that user.
 */
export function firstStreamData(s: StreamHintInput): { user: User; afterMs: number | undefined } | undefined {
  const index = s.replayed.findIndex(
    (message) =>
      s.catalog.kindOf(channelOf(message)) === 'transient' &&
      s.users.users.some((user) => subscribes(user, channelOf(message))),
  );
  if (index < 0) return undefined;
  const channel = channelOf(s.replayed[index]!);
  const user = s.users.users.find((candidate) => subscribes(candidate, channel))!;
  const schedule = inProcessReplaySchedule(s.settings);
  const afterMs =
    schedule?.mode === 'interval'
      ? (schedule.initialDelayMs ?? schedule.intervalMs) + index * schedule.intervalMs
      : undefined;
  return { user, afterMs };
}
