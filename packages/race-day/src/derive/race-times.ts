import type { Meeting, Race, Starter } from '../model/types';

/** The start the countdown aims at, as known at `t`. */
export function expectedStartAt(race: Race, t: number): number {
  let start = race.plannedStart;
  for (const change of race.startChanges) if (change.at <= t) start = change.start;
  return start;
}

/** When the race really starts: the last start announced. */
export function actualStart(race: Race): number {
  return race.startChanges.at(-1)?.start ?? race.plannedStart;
}

/** Starters that go to the start (not scratched). */
export const runnersOf = (race: Race): Starter[] => race.starters.filter((s) => !s.scratched);

/** Runners that reach the finish line: not disqualified on the way, not stopped. */
export const finishersOf = (race: Race): Starter[] =>
  runnersOf(race).filter((s) => !s.disqualified && !s.nonFinisher);

/** Seconds after the start when the first runner crosses the line. */
export function winnerSeconds(race: Race): number {
  const times = finishersOf(race).map((s) => s.finishSeconds);
  // A race where nobody finishes still ends: at the pace of its fastest starter.
  return times.length > 0 ? Math.min(...times) : Math.min(...runnersOf(race).map((s) => s.finishSeconds));
}

/**
 * When something the running makes happen at `natural` (a split, the finish) goes out: at once
 * for what a finish-now hurried.
 */
export const hurried = (race: Race, natural: number): number =>
  race.finishNow === undefined ? natural : Math.min(natural, race.finishNow.at);

export const finishAt = (race: Race): number =>
  hurried(race, actualStart(race) + Math.round(winnerSeconds(race) * 1000));

export const resultAt = (race: Race): number => finishAt(race) + race.resultDelayMs;

/** When the parade countdown (and the start countdown with it) begins. */
export const countdownFrom = (race: Race): number => race.paradeAt - 5 * 60_000;

/**
 * When the race was called off, if it was: cancelled itself, or its meeting cancelled,
 * postponed, or abandoned before it.
 */
export function calledOffAt(meeting: Meeting, race: Race): number | undefined {
  const times = [
    race.cancelled?.at,
    meeting.cancelled?.at,
    meeting.postponed?.at,
    meeting.abandoned && race.raceNr > meeting.abandoned.afterRace ? meeting.abandoned.at : undefined,
  ].filter((t): t is number => t !== undefined);
  return times.length > 0 ? Math.min(...times) : undefined;
}

/** A race called off before it started never runs. */
export function runs(meeting: Meeting, race: Race): boolean {
  const off = calledOffAt(meeting, race);
  return off === undefined || off >= actualStart(race);
}
