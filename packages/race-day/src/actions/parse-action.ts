import { raceDayError } from '../errors';
import { isRealDate } from '../time/dates';
import {
  ACTION_NAMES,
  ACTION_SPECS,
  MEETING_ACTIONS,
  TARGET_KEYS,
  type ActionName,
  type ArgumentSpec,
  type Placing,
  type RaceDayAction,
} from './action-types';

/** Longest free text an action takes (a reason, a driver's name). */
export const MAX_TEXT = 200;
export const MAX_DELAY_MINUTES = 180;
/** A field of at most 15, and a few more for any placings a list could hold. */
const MAX_LIST = 30;

const invalid = (message: string) => raceDayError('RACE_DAY_INVALID', message);
const shown = (value: unknown) => JSON.stringify(value)?.slice(0, 60) ?? String(value);
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isWhole = (v: unknown, min: number, max: number): v is number =>
  typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;

function usage(name: ActionName): string {
  const spec = ACTION_SPECS[name];
  const race = MEETING_ACTIONS.includes(name as never) ? 'raceNr?' : 'raceNr';
  const args = spec.args.map((a) => `${a.name}${a.required ? '' : '?'}`);
  return `{"action": "${name}", trackId, ${[race, ...args].join(', ')}}`;
}

function integer(body: Record<string, unknown>, key: string, what: string, min = 1, max = 99_999): number {
  const v = body[key];
  if (!isWhole(v, min, max))
    throw invalid(`${what}: "${key}" must be a whole number from ${min}, got ${shown(v)}`);
  return v;
}

function text(body: Record<string, unknown>, key: string, what: string): string | undefined {
  const v = body[key];
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || v.trim() === '' || v.length > MAX_TEXT) {
    throw invalid(`${what}: "${key}" must be a non-empty string of at most ${MAX_TEXT} characters`);
  }
  return v.trim();
}

function startNrList(v: unknown, what: string): number[] {
  if (!Array.isArray(v) || v.length < 2 || v.length > MAX_LIST || !v.every((n) => isWhole(n, 1, 99))) {
    throw invalid(`${what}: "startNrs" must be a list of two or more start numbers, got ${shown(v)}`);
  }
  if (new Set(v).size !== v.length) throw invalid(`${what}: "startNrs" names a start twice`);
  return v as number[];
}

function placingList(v: unknown, what: string): Placing[] {
  const example = '[{"startNr": 4, "place": 1}, {"startNr": 7, "place": 2}, ...]';
  if (!Array.isArray(v) || v.length === 0 || v.length > MAX_LIST) {
    throw invalid(`${what}: "placings" must be a list like ${example}, got ${shown(v)}`);
  }
  return v.map((p, i) => {
    if (!isObject(p) || Object.keys(p).some((k) => k !== 'startNr' && k !== 'place')) {
      throw invalid(`${what}: placings[${i}] must be {"startNr": n, "place": n}, got ${shown(p)}`);
    }
    if (!isWhole(p.startNr, 1, 99) || !isWhole(p.place, 1, 99)) {
      throw invalid(`${what}: placings[${i}] needs whole numbers startNr and place from 1, got ${shown(p)}`);
    }
    return { startNr: p.startNr, place: p.place };
  });
}

function minutesOf(v: unknown, what: string): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0 || v > MAX_DELAY_MINUTES) {
    throw invalid(
      `${what}: "minutes" must be a number more than 0 and at most ${MAX_DELAY_MINUTES}, got ${shown(v)}`,
    );
  }
  if (Math.round(v * 60) < 1) throw invalid(`${what}: "minutes" must come to at least a second`);
  return v;
}

function timeOfDay(v: unknown, what: string): string | undefined {
  if (v === undefined) return undefined;
  const match = typeof v === 'string' ? /^([01]\d|2[0-3]):([0-5]\d)$/.exec(v) : null;
  if (!match) throw invalid(`${what}: "firstStart" must be a local time HH:MM, got ${shown(v)}`);
  return v as string;
}

/**
 * The body of POST /_sim/race-day/actions as a typed action, or RACE_DAY_INVALID (400) naming
 * what is wrong: not an object, an unknown action (listing them), a field the action does not
 * take (listing its fields), a value of the wrong type or out of range. Whether the race, start
 * and phase allow it is the day's to say (applyAction).
 */
export function parseAction(body: unknown): RaceDayAction {
  if (!isObject(body)) {
    throw invalid(
      'an action is a JSON object like {"action": "scratch", "trackId": 5, "raceNr": 3, "startNr": 4}',
    );
  }
  const name = body.action;
  if (typeof name !== 'string' || !ACTION_NAMES.includes(name as ActionName)) {
    throw invalid(`unknown action ${shown(name)}; actions: ${ACTION_NAMES.join(', ')}`);
  }
  const action = name as ActionName;
  const spec = ACTION_SPECS[action];
  const known = [...TARGET_KEYS, ...spec.args.map((a: ArgumentSpec) => a.name)];
  for (const key of Object.keys(body)) {
    if (!known.includes(key)) {
      throw invalid(`${action} takes no "${key.slice(0, 40)}"; it takes ${usage(action)}`);
    }
  }
  for (const arg of spec.args) {
    if (arg.required && body[arg.name] === undefined) {
      throw invalid(`${action} needs "${arg.name}" (${arg.summary}): ${usage(action)}`);
    }
  }
  const trackId = integer(body, 'trackId', action);
  const meetingLevel = spec.level === 'meeting';
  const raceNr =
    meetingLevel && body.raceNr === undefined ? undefined : integer(body, 'raceNr', action, 1, 99);
  if (raceNr === undefined && !meetingLevel) throw invalid(`${action} needs "raceNr": ${usage(action)}`);
  const target = { trackId, raceNr: raceNr! };
  const why = {
    ...(text(body, 'reason', action) !== undefined && { reason: text(body, 'reason', action)! }),
  };
  switch (action) {
    case 'scratch':
    case 'disqualify':
      return { action, ...target, startNr: integer(body, 'startNr', action, 1, 99), ...why };
    case 'change-driver': {
      const driver = text(body, 'driver', action);
      return {
        action,
        ...target,
        startNr: integer(body, 'startNr', action, 1, 99),
        ...(driver !== undefined && { driver }),
        ...why,
      };
    }
    case 'delay-start':
      return { action, ...target, minutes: minutesOf(body.minutes, action), ...why };
    case 'false-start': {
      const after = body.restartAfterSeconds;
      if (after !== undefined && !isWhole(after, 10, 900)) {
        throw invalid(
          `${action}: "restartAfterSeconds" must be a whole number from 10 to 900, got ${shown(after)}`,
        );
      }
      return {
        action,
        ...target,
        ...(after !== undefined && { restartAfterSeconds: after as number }),
        ...why,
      };
    }
    case 'dead-heat':
      return { action, ...target, startNrs: startNrList(body.startNrs, action) };
    case 'correct-result':
      return { action, ...target, placings: placingList(body.placings, action), ...why };
    case 'cancel-race':
      return { action, ...target, ...why };
    case 'finish-now':
      return { action, ...target };
    case 'cancel-meeting':
    case 'abandon-meeting':
      return { action, trackId, ...(raceNr !== undefined && { raceNr }), ...why };
    case 'postpone-meeting': {
      const toDate = body.toDate;
      if (typeof toDate !== 'string' || !isRealDate(toDate)) {
        throw invalid(`${action}: "toDate" must be a real date YYYY-MM-DD, got ${shown(toDate)}`);
      }
      const firstStart = timeOfDay(body.firstStart, action);
      return {
        action,
        trackId,
        ...(raceNr !== undefined && { raceNr }),
        toDate,
        ...(firstStart !== undefined && { firstStart }),
        ...why,
      };
    }
  }
}
