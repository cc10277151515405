import type { Meeting, Race, RaceDayPlan } from '../model/types';
import { phaseAt } from '../derive/phase';
import { actualStart, expectedStartAt, finishersOf, runnersOf, runs } from '../derive/race-times';
import { fieldAt, timeAt } from '../derive/running';
import { placesOf, resultState } from '../derive/result';
import { localIso } from '../time/stockholm';
import { quietFrom } from '../timeline/race-live';
import { MIN_RUNNERS } from '../ops/starter-ops';
import { findMeeting, findRace } from '../ops/plan-edit';
import {
  ACTION_SPECS,
  MEETING_ACTIONS,
  RACE_ACTIONS,
  type MeetingActionName,
  type RaceActionName,
} from './action-types';

/** Start changes (delays, recalls) and result changes a race takes at most: a plan stays small. */
export const MAX_START_CHANGES = 20;
export const MAX_RESULT_CHANGES = 20;

const SECOND = 1000;
const clock = (t: number) => localIso(t).slice(11, 19);

/**
 * When the field first shows after the start: the first split, or a live disqualification
 * announced before it. A recall comes before that, or it would take back what consumers saw.
 */
export function firstNewsAfterStart(meeting: Meeting, race: Race): number {
  const start = actualStart(race);
  const step = meeting.sport === 'trot' ? 500 : 400;
  let first = start + Math.round(fieldAt(race, step).leaderSeconds * SECOND);
  for (const s of runnersOf(race)) {
    if (!s.disqualified) continue;
    const at = start + Math.round(timeAt(s, race, s.disqualified.atMeters) * SECOND);
    first = Math.min(first, at + s.disqualified.announceAfterMs);
  }
  return first;
}

/** Why a race action cannot be taken at `at` whatever its arguments, or undefined when it can. */
export function raceRefusal(
  meeting: Meeting,
  race: Race,
  name: RaceActionName,
  at: number,
): string | undefined {
  const phase = phaseAt(meeting, race, at);
  const spec = ACTION_SPECS[name];
  const where = `race ${race.raceNr} at track ${meeting.trackId} (${meeting.track})`;
  if (!spec.phases.includes(phase)) return `${where} is ${phase}; ${name} is allowed ${spec.when}`;
  switch (name) {
    case 'scratch':
      return runnersOf(race).length <= MIN_RUNNERS
        ? `${where} keeps at least ${MIN_RUNNERS} starters`
        : undefined;
    case 'delay-start': {
      if (race.startChanges.filter((c) => c.at <= at).length >= MAX_START_CHANGES)
        return `${where} has had ${MAX_START_CHANGES} start changes, the most a race takes`;
      const expected = expectedStartAt(race, at);
      return expected + 60 * SECOND >= quietFrom(meeting.date)
        ? `${where} starts at ${clock(expected)}: no delay keeps it before 22:00`
        : undefined;
    }
    case 'false-start': {
      if (race.startChanges.filter((c) => c.at <= at).length >= MAX_START_CHANGES)
        return `${where} has had ${MAX_START_CHANGES} start changes, the most a race takes`;
      const shown = firstNewsAfterStart(meeting, race);
      if (phase === 'running' && at >= shown) {
        return `${where} is running and its field showed at ${clock(shown)}; a recall comes before the first split`;
      }
      return undefined;
    }
    case 'disqualify':
      if (phase === 'running') {
        return finishersOf(race).length < 2 ? `${where} would have nobody left to finish` : undefined;
      }
      return placesOf(resultState(race, at).standing).size === 0 ? `${where} has nobody placed` : undefined;
    case 'dead-heat': {
      const count =
        phase === 'finished' ? finishersOf(race).length : placesOf(resultState(race, at).standing).size;
      return count < 2
        ? `${where} has fewer than two ${phase === 'finished' ? 'finishers' : 'placed'}`
        : undefined;
    }
    case 'correct-result':
      return race.resultChanges.filter((c) => c.at <= at).length >= MAX_RESULT_CHANGES
        ? `${where} has had ${MAX_RESULT_CHANGES} result changes, the most a race takes`
        : undefined;
    default:
      return undefined;
  }
}

/** A meeting called off by `at` (planned call-offs still ahead do not count: an action takes over). */
export function calledOffBy(meeting: Meeting, at: number): string | undefined {
  if (meeting.cancelled && meeting.cancelled.at <= at) return 'cancelled';
  if (meeting.postponed && meeting.postponed.at <= at) return 'postponed';
  if (meeting.abandoned && meeting.abandoned.at <= at) return 'abandoned';
  return undefined;
}

/** The last race of the meeting that has started by `at` (and runs), if any. */
export function lastStarted(meeting: Meeting, at: number): Race | undefined {
  return meeting.races.filter((r) => runs(meeting, r) && actualStart(r) <= at).at(-1);
}

/** Why a meeting action cannot be taken at `at`, or undefined when it can. */
export function meetingRefusal(meeting: Meeting, name: MeetingActionName, at: number): string | undefined {
  const where = `the meeting at track ${meeting.trackId} (${meeting.track})`;
  const off = calledOffBy(meeting, at);
  if (off) return `${where} is ${off}`;
  const started = lastStarted(meeting, at);
  if (name === 'abandon-meeting') {
    if (!started) return `${where} has not started; ${name} is allowed ${ACTION_SPECS[name].when}`;
    const later = meeting.races.filter((r) => r.raceNr > started.raceNr);
    if (later.length === 0) return `race ${started.raceNr} is ${where}'s last; nothing is left to abandon`;
    return undefined;
  }
  if (started) {
    return `${where} has started (race ${started.raceNr} at ${clock(actualStart(started))}); ${name} is allowed ${ACTION_SPECS[name].when}`;
  }
  return undefined;
}

/** The race actions its phase allows at `at`. */
export function allowedRaceActions(meeting: Meeting, race: Race, at: number): RaceActionName[] {
  return RACE_ACTIONS.filter((name) => raceRefusal(meeting, race, name, at) === undefined);
}

/** The meeting actions allowed at `at`. */
export function allowedMeetingActions(meeting: Meeting, at: number): MeetingActionName[] {
  return MEETING_ACTIONS.filter((name) => meetingRefusal(meeting, name, at) === undefined);
}

/** Every action allowed on a race at `at`: its own and its meeting's. */
export function allowedActions(plan: RaceDayPlan, trackId: number, raceNr: number | undefined, at: number) {
  const meeting = findMeeting(plan, trackId);
  const race = raceNr === undefined ? undefined : findRace(plan, { trackId, raceNr }).race;
  return [...(race ? allowedRaceActions(meeting, race, at) : []), ...allowedMeetingActions(meeting, at)];
}
