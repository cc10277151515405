import { isCalendarDate } from './dates';
import { always, parseBoolean, parseInteger, type OptionSpec, type Parser } from './option-parsers';

/**
 * The settings of a generated race day played live (packages/race-day). Core checks their form;
 * the race-day package checks the rest (edge-case ids, meeting caps, a placement naming a race)
 * when it generates the day, before anything listens.
 */
export interface RaceDaySettings {
  /** `today` or a date: the day to play; undefined plays none. */
  readonly raceDay: string | undefined;
  /** 1 is real time on the simulator's clock; 60 is an hour a minute. */
  readonly raceDaySpeed: number;
  /** Undefined: the date's own seed (its digits). */
  readonly raceDaySeed: number | undefined;
  readonly raceDayEdgeCases: string;
  readonly raceDayMeetings: string;
  /** Where the day stands when play starts: now, next-race or HH:MM. */
  readonly raceDayAt: string;
  /** POST /api/message checks a payload against its channel's schema (JSON simulator). */
  readonly strictPayloads: boolean;
}

class SettingValueError extends Error {}

// `off` exists for compose files: podman-compose 1.0 leaves an empty default (`${RACE_DAY:-}`)
// uninterpolated, so docker/compose.yaml says `${RACE_DAY:-off}`.
const parseRaceDay: Parser<string | undefined> = (raw) => {
  const text = raw.trim();
  if (text === 'off') return undefined;
  if (text === 'today' || isCalendarDate(text)) return text;
  throw new SettingValueError(`expected today, a real date YYYY-MM-DD or off, got "${raw.slice(0, 40)}"`);
};

const parseSpeed: Parser<number> = (raw) => {
  const text = raw.trim();
  const n = /^\d+(\.\d+)?$/.test(text) ? Number(text) : NaN;
  if (!(n > 0 && n <= 3600)) {
    throw new SettingValueError(
      `expected a number above 0 and at most 3600 (1 is real time), got "${raw.slice(0, 40)}"`,
    );
  }
  return n;
};

const parseAt: Parser<string> = (raw) => {
  const text = raw.trim();
  if (text === 'now' || text === 'next-race' || /^([01]\d|2[0-3]):[0-5]\d$/.test(text)) return text;
  throw new SettingValueError(`expected now, next-race or a local time HH:MM, got "${raw.slice(0, 40)}"`);
};

// The form only; the race-day package knows the ids and the caps and checks them at start.
const parseMeetings: Parser<string> = (raw) => {
  const text = raw.trim();
  if (/^(auto|(trot|gallop):\d{1,2}(,(trot|gallop):\d{1,2})?)$/.test(text)) return text;
  throw new SettingValueError(`expected auto or trot:N,gallop:N, got "${raw.slice(0, 40)}"`);
};

const parseEdgeCases: Parser<string> = (raw) => {
  const text = raw.trim();
  if (/^[a-z][a-z-]*(@\d{1,6}(:\d{1,3})?)?(\s*,\s*[a-z][a-z-]*(@\d{1,6}(:\d{1,3})?)?)*$/.test(text))
    return text;
  throw new SettingValueError(
    `expected default, all, none or a comma list of id[@trackId[:raceNr]], got "${raw.slice(0, 40)}"`,
  );
};

type Key = keyof RaceDaySettings;

export const RACE_DAY_SETTINGS: readonly OptionSpec<Key, unknown>[] = [
  {
    key: 'raceDay',
    flag: '--race-day',
    env: 'RACE_DAY',
    description: 'play a generated race day live: today, YYYY-MM-DD or off (off when unset; not with replay)',
    defaultFor: always(undefined),
    parse: parseRaceDay,
  },
  {
    key: 'raceDaySpeed',
    flag: '--race-day-speed',
    env: 'RACE_DAY_SPEED',
    description: "race-day speed on the simulator's clock: 1 real time, 60 an hour a minute (up to 3600)",
    defaultFor: always('1'),
    parse: parseSpeed,
  },
  {
    key: 'raceDaySeed',
    flag: '--race-day-seed',
    env: 'RACE_DAY_SEED',
    description: "the race day's seed (default: the date's digits, so a date is the same day everywhere)",
    defaultFor: always(undefined),
    parse: parseInteger(0, 4_294_967_295),
  },
  {
    key: 'raceDayEdgeCases',
    flag: '--race-day-edge-cases',
    env: 'RACE_DAY_EDGE_CASES',
    description:
      'race-day edge cases: default (a realistic few), all, none, or ids, each id[@trackId[:raceNr]]',
    defaultFor: always('default'),
    parse: parseEdgeCases,
  },
  {
    key: 'raceDayMeetings',
    flag: '--race-day-meetings',
    env: 'RACE_DAY_MEETINGS',
    description: 'race-day meetings: auto (the calendar) or trot:N,gallop:N (trot 0-4, gallop 0-1)',
    defaultFor: always('auto'),
    parse: parseMeetings,
  },
  {
    key: 'raceDayAt',
    flag: '--race-day-at',
    env: 'RACE_DAY_AT',
    description:
      'where the race day stands at start: now (its time of day), next-race (just before a trot race) or HH:MM',
    defaultFor: always('now'),
    parse: parseAt,
  },
  {
    key: 'strictPayloads',
    flag: '--strict-payloads',
    env: 'STRICT_PAYLOADS',
    description: "JSON simulator: POST /api/message refuses (400) a payload that breaks its channel's schema",
    defaultFor: always('false'),
    parse: parseBoolean,
    boolean: true,
  },
];
