import type { RaceDayPlan } from '../model/types';
import { countdownFrom } from '../derive/race-times';
import type { DayMessage } from './messages';
import { meetingMessages } from './meeting-stream';
import { raceDurableMessages } from './race-durable';
import { liveWindow, raceLiveMessages, type TimelineOptions } from './race-live';

/**
 * A part of the day's messages, in time order, built only when asked: a player expands a race's
 * live part (thousands of countdown ticks) only when the day comes near it, and skips the live
 * parts of races already over without building them.
 */
export interface Stream {
  /** No message of the stream is earlier. */
  readonly from: number;
  /** No message of the stream is later. */
  readonly to: number;
  readonly live: boolean;
  build(): DayMessage[];
}

/** The day's streams, in the order messages of one instant are played: meetings in plan order, each its programme, then each race's durable and live parts. */
export function dayStreams(plan: RaceDayPlan, options: TimelineOptions = {}): Stream[] {
  const streams: Stream[] = [];
  for (const meeting of plan.meetings) {
    streams.push({
      from: meeting.programmeAt,
      to: Number.POSITIVE_INFINITY,
      live: false,
      build: () => meetingMessages(meeting),
    });
    for (const race of meeting.races) {
      streams.push({
        from: meeting.programmeAt,
        to: Number.POSITIVE_INFINITY,
        live: false,
        build: () => raceDurableMessages(meeting, race),
      });
      const window = liveWindow(race);
      streams.push({
        from: countdownFrom(race),
        to: window.to + 60_000,
        live: true,
        build: () => raceLiveMessages(meeting, race, options),
      });
    }
  }
  return streams;
}

/** Merges sorted arrays by time; at one instant the earlier stream's messages come first. */
export function mergeStreams(parts: readonly (readonly DayMessage[])[]): DayMessage[] {
  const out: DayMessage[] = [];
  const index = parts.map(() => 0);
  for (;;) {
    let best = -1;
    let bestAt = Number.POSITIVE_INFINITY;
    for (let i = 0; i < parts.length; i++) {
      const m = parts[i]![index[i]!];
      if (m !== undefined && m.at < bestAt) {
        best = i;
        bestAt = m.at;
      }
    }
    if (best < 0) return out;
    out.push(parts[best]![index[best]!++]!);
  }
}

/** Every message of the day, in the order a player plays them: a pure function of the plan. */
export function dayTimeline(plan: RaceDayPlan, options: TimelineOptions = {}): DayMessage[] {
  return mergeStreams(dayStreams(plan, options).map((s) => s.build()));
}
