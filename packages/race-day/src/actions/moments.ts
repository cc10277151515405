import type { Meeting, Race } from '../model/types';
import { actualStart, countdownFrom, finishAt, resultAt, runs } from '../derive/race-times';

/**
 * The moments of a race POST /_sim/race-day/goto goes to, each where a phase begins: `parade`
 * (its countdown), `countdown` (the parade: the start countdown runs on alone), `start` (the
 * actual start; also `running`), `finish` (the first runner home; also `finished`), `result`.
 */
export const RACE_MOMENTS = [
  'parade',
  'countdown',
  'start',
  'running',
  'finish',
  'finished',
  'result',
] as const;

export type RaceMoment = (typeof RACE_MOMENTS)[number];

/** Day time of the moment as the plan stands, or undefined for a race that does not run. */
export function raceMoment(meeting: Meeting, race: Race, moment: RaceMoment): number | undefined {
  if (!runs(meeting, race)) return undefined;
  switch (moment) {
    case 'parade':
      return countdownFrom(race);
    case 'countdown':
      return race.paradeAt;
    case 'start':
    case 'running':
      return actualStart(race);
    case 'finish':
    case 'finished':
      return finishAt(race);
    case 'result':
      return resultAt(race);
  }
}
