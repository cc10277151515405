import type { RaceDayPlan } from '../model/types';
import { countdownFrom, resultAt } from '../derive/race-times';
import type { DayMessage } from './messages';
import { meetingMessages } from './meeting-stream';
import { raceProgrammeMessages, raceResultMessages } from './race-durable';
import { liveWindow, raceLiveMessages, type TimelineOptions } from './race-live';

/**
 * A part of the day's messages, in time order, built only when asked: a player expands a race's
 * live part (thousands of countdown ticks) only when the day comes near it, and skips the live
 * parts of races already over without building them.
 */
export interface Stream {
  /** Index of its meeting in the plan. */
  readonly meeting: number;
  /** No message of the stream is earlier. */
  readonly from: number;
  /** No message of the stream is later. */
  readonly to: number;
  readonly live: boolean;
  build(): DayMessage[];
}

/**
 * The day's streams, in the order messages of one instant are played: meetings in plan order,
 * each its programme, then each race's programme messages, live part and result.
 */
export function dayStreams(plan: RaceDayPlan, options: TimelineOptions = {}): Stream[] {
  const streams: Stream[] = [];
  const ever = Number.POSITIVE_INFINITY;
  plan.meetings.forEach((meeting, m) => {
    streams.push({
      meeting: m,
      from: meeting.programmeAt,
      to: ever,
      live: false,
      build: () => meetingMessages(meeting),
    });
    for (const race of meeting.races) {
      streams.push({
        meeting: m,
        from: meeting.programmeAt,
        to: ever,
        live: false,
        build: () => raceProgrammeMessages(meeting, race),
      });
      const window = liveWindow(race);
      streams.push({
        meeting: m,
        from: countdownFrom(race),
        to: window.to + 60_000,
        live: true,
        build: () => raceLiveMessages(meeting, race, options),
      });
      // Built when the result comes, not at start: most of a day's results lie ahead of it.
      streams.push({
        meeting: m,
        from: resultAt(race),
        to: ever,
        live: false,
        build: () => raceResultMessages(meeting, race),
      });
    }
  });
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
