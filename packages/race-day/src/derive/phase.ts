import type { Meeting, Race } from '../model/types';
import { actualStart, calledOffAt, countdownFrom, finishAt, resultAt } from './race-times';

export const PHASES = [
  'scheduled',
  'parade',
  'countdown',
  'running',
  'finished',
  'result',
  'cancelled',
] as const;
export type Phase = (typeof PHASES)[number];

/**
 * Where a race is at `t`: scheduled until its parade countdown, parade until the parade,
 * countdown until the actual start (a recall included), running until the first runner
 * finishes, finished until the preliminary result, then result; cancelled once called off.
 */
export function phaseAt(meeting: Meeting, race: Race, t: number): Phase {
  const off = calledOffAt(meeting, race);
  if (off !== undefined && off <= t && off < actualStart(race)) return 'cancelled';
  if (t < countdownFrom(race)) return 'scheduled';
  if (t < race.paradeAt) return 'parade';
  if (t < actualStart(race)) return 'countdown';
  if (t < finishAt(race)) return 'running';
  if (t < resultAt(race)) return 'finished';
  return 'result';
}
