import type { RaceDaySettings } from '@racedata/core';
import {
  defaultSeed,
  localDateOf,
  parseDateOption,
  parseEdgeCasesOption,
  parseMeetingsOption,
  parseSeedOption,
  parseSpeedOption,
  parseStartAtOption,
  type PlayRequest,
} from '@racedata/race-day/player';
import { invalid, isObject, onlyKeys } from './body-checks';

export const RACE_DAY_BODY_KEYS = ['date', 'seed', 'meetings', 'edgeCases', 'speed', 'at'] as const;

/**
 * The body of POST /_sim/race-day: the day's options, each defaulting to the simulator's own
 * settings (RACE_DAY and its companions), then to today, the date's seed, auto meetings, the
 * default edge cases, speed 1 and now. A bad field is a 400 naming it (RACE_DAY_INVALID).
 */
export function parseRaceDayBody(body: unknown, settings: RaceDaySettings, now: number): PlayRequest {
  if (body !== undefined && !isObject(body)) {
    throw invalid(
      'race-day body must be a JSON object like {"date": "today", "edgeCases": "all", "speed": 60}',
    );
  }
  const b = body ?? {};
  onlyKeys(b, RACE_DAY_BODY_KEYS, 'race-day');
  const date = parseDateOption(b.date ?? settings.raceDay ?? 'today', localDateOf(now));
  const configured = settings.raceDay !== undefined && b.date === undefined;
  const seed = b.seed ?? (configured ? settings.raceDaySeed : undefined);
  return {
    day: {
      date,
      seed: seed === undefined ? defaultSeed(date) : parseSeedOption(seed),
      meetings: parseMeetingsOption(b.meetings ?? settings.raceDayMeetings),
      edgeCases: parseEdgeCasesOption(b.edgeCases ?? settings.raceDayEdgeCases),
    },
    speed: parseSpeedOption(b.speed ?? settings.raceDaySpeed),
    at: parseStartAtOption(b.at ?? settings.raceDayAt),
  };
}
