import { errorFactory, type ErrorSpec } from '@racedata/core';

/**
 * The race-day error catalog. The control plane answers these with their status; the CLI ends
 * with exit 2 on the 400s (it lists them in its own catalog).
 */
export const raceDayErrors = {
  /** A malformed or out-of-range option: date, days, seed, meetings, speed, at, edge cases. */
  RACE_DAY_INVALID: { status: 400 },
  /** `id@trackId:raceNr` (or a start) that names nothing in the day. */
  RACE_DAY_NO_SUCH_RACE: { status: 400 },
  /** GET of a day while none runs. */
  RACE_DAY_NOT_RUNNING: { status: 404 },
  /** An action or a go-to (POST /_sim/race-day/actions, /goto) while no day plays. */
  RACE_DAY_NOT_PLAYING: { status: 400 },
  /** A plan operation the race's phase does not allow (a scratching after the start...). */
  RACE_DAY_PHASE: { status: 409 },
} as const satisfies Record<string, ErrorSpec>;

export type RaceDayErrorCode = keyof typeof raceDayErrors;

export const raceDayError = errorFactory(raceDayErrors);
