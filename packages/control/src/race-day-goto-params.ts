import { raceDayError, RACE_MOMENTS, type RaceMoment } from '@racedata/race-day/player';
import { isObject } from './body-checks';

const GOTO_KEYS = ['trackId', 'raceNr', 'phase', 'offsetMs'];
/** A go-to lands within a day of the moment named. */
const MAX_OFFSET_MS = 24 * 60 * 60_000;

const invalid = (message: string) => raceDayError('RACE_DAY_INVALID', message);
const shown = (v: unknown) => JSON.stringify(v)?.slice(0, 60) ?? String(v);
const whole = (v: unknown, min: number, max: number): v is number =>
  typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;

export interface GotoTarget {
  readonly trackId: number;
  readonly raceNr: number;
  readonly phase: RaceMoment;
  readonly offsetMs?: number;
}

/** The body of POST /_sim/race-day/goto, or RACE_DAY_INVALID (400) naming what is wrong. */
export function parseGotoBody(body: unknown): GotoTarget {
  const example = '{"trackId": 5, "raceNr": 3, "phase": "start", "offsetMs": -30000}';
  if (!isObject(body)) throw invalid(`goto takes a JSON object like ${example}`);
  for (const key of Object.keys(body)) {
    if (!GOTO_KEYS.includes(key)) {
      throw invalid(`goto takes no "${key.slice(0, 40)}"; it takes ${GOTO_KEYS.join(', ')}: ${example}`);
    }
  }
  const { trackId, raceNr, phase, offsetMs } = body;
  if (!whole(trackId, 1, 99_999))
    throw invalid(`goto: "trackId" must be a whole number, got ${shown(trackId)}`);
  if (!whole(raceNr, 1, 99))
    throw invalid(`goto: "raceNr" must be a whole number from 1, got ${shown(raceNr)}`);
  if (typeof phase !== 'string' || !RACE_MOMENTS.includes(phase as RaceMoment)) {
    throw invalid(`goto: "phase" must be one of ${RACE_MOMENTS.join(', ')}, got ${shown(phase)}`);
  }
  if (offsetMs !== undefined && !whole(offsetMs, -MAX_OFFSET_MS, MAX_OFFSET_MS)) {
    throw invalid(
      `goto: "offsetMs" must be whole milliseconds within a day (±${MAX_OFFSET_MS}), got ${shown(offsetMs)}`,
    );
  }
  return { trackId, raceNr, phase: phase as RaceMoment, ...(offsetMs !== undefined && { offsetMs }) };
}
