import { raceDayError } from '../errors';
import type { Meeting, Race, RaceDayPlan, Starter } from '../model/types';
import { seededRng } from '../random';
import { phaseAt, type Phase } from '../derive/phase';
import { actualStart, expectedStartAt, finishersOf } from '../derive/race-times';
import { timeAt } from '../derive/running';
import { placesOf, resultState, type Standing } from '../derive/result';
import { dayIndex } from '../time/dates';
import { localIso, localMinutesOf } from '../time/stockholm';
import { quietFrom } from '../timeline/race-live';
import { personName } from '../generate/names';
import { findMeeting, findRace, findStarter, type RaceRef, type StartRef } from '../ops/plan-edit';
import { changeDriver, scratch, stopRunner } from '../ops/starter-ops';
import { delayStart, falseStart } from '../ops/start-ops';
import { correctResult, deadHeat, disqualifyAfterResult, finishNow, photoFinish } from '../ops/finish-ops';
import { abandonMeeting, cancelMeeting, cancelRace, postponeMeeting } from '../ops/meeting-ops';
import { lastStarted, meetingRefusal, raceRefusal } from './action-rules';
import type { RaceDayAction } from './action-types';
import {
  withLaterResultChangesMoved,
  withoutLaterCallOff,
  withoutLaterForStarter,
  withoutLaterResultChanges,
  withoutLaterStartChanges,
} from './take-over';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
/** From a recall to the restart when the action does not say. */
const RESTART_AFTER_SECONDS = 120;
/** How long the judges study the photo of a dead heat made while the race is finished. */
const DEAD_HEAT_PHOTO_MS = 4 * MINUTE;
/** How far ahead a meeting may be postponed. */
const POSTPONE_MAX_DAYS = 366;

const phaseError = (message: string) => raceDayError('RACE_DAY_PHASE', message);
const invalid = (message: string) => raceDayError('RACE_DAY_INVALID', message);
const clock = (t: number) => localIso(t).slice(11, 16);

function refuseRace(meeting: Meeting, race: Race, action: RaceDayAction, at: number): void {
  const why = raceRefusal(meeting, race, action.action as never, at);
  if (why) throw phaseError(`${action.action}: ${why}`);
}

/** The start a start-level action names, or a 400 listing the race's starts. */
function starterOf(plan: RaceDayPlan, ref: StartRef) {
  const { race } = findRace(plan, ref);
  const starter = race.starters.find((s) => s.startNr === ref.startNr);
  if (!starter) {
    throw raceDayError(
      'RACE_DAY_NO_SUCH_RACE',
      `race ${ref.raceNr} at track ${ref.trackId} has no start ${ref.startNr}; its starts: ${race.starters
        .map((s) => s.startNr)
        .join(', ')}`,
    );
  }
  return findStarter(race, ref);
}

/** The first whole metre a runner has not reached `elapsed` seconds after the start (the distance once home). */
function metreAhead(starter: Starter, race: Race, elapsed: number): number {
  let lo = 1;
  let hi = race.distance;
  // The running is monotonic in distance: the first metre whose time lies ahead.
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (timeAt(starter, race, mid) < elapsed) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The first whole metre the field's leader has not reached at `at`. */
function leaderMetre(race: Race, at: number): number {
  const elapsed = (at - actualStart(race)) / SECOND;
  return Math.max(...finishersOf(race).map((s) => metreAhead(s, race, elapsed)));
}

/**
 * Where a live disqualification at `at` takes the runner out: beyond every point the field's
 * leader has passed, so no split or last-500 message already sent changes; and when it is
 * announced: now (announceAfterMs counts from the runner reaching that point, so it is negative
 * when the runner is behind it).
 */
function liveStop(
  plan: RaceDayPlan,
  ref: StartRef,
  at: number,
): { atMeters: number; announceAfterMs: number } {
  const { race } = findRace(plan, ref);
  const starter = findStarter(race, ref);
  const elapsed = (at - actualStart(race)) / SECOND;
  if (metreAhead(starter, race, elapsed) >= race.distance) {
    throw phaseError(
      `disqualify: start ${ref.startNr} in race ${ref.raceNr} has finished; disqualify it once the result is out`,
    );
  }
  const atMeters = Math.min(leaderMetre(race, at), race.distance - 1);
  const passes = actualStart(race) + Math.round(timeAt(starter, race, atMeters) * SECOND);
  return { atMeters, announceAfterMs: at - passes };
}

/** A standing in which `startNrs` share the best place any of them has; the rest keep their order. */
function withDeadHeat(standing: Standing, startNrs: readonly number[]): Standing {
  const chosen = new Set(startNrs);
  const firstIndex = standing.findIndex((g) => g.some((n) => chosen.has(n)));
  const out: Standing = [];
  standing.forEach((group, i) => {
    if (i === firstIndex) {
      out.push([...new Set([...group, ...startNrs])].sort((a, b) => a - b));
      return;
    }
    const left = group.filter((n) => !chosen.has(n));
    if (left.length > 0) out.push(left);
  });
  return out;
}

function raceAction(
  plan: RaceDayPlan,
  action: Extract<RaceDayAction, { raceNr: number }>,
  at: number,
): RaceDayPlan {
  const ref: RaceRef = { trackId: action.trackId, raceNr: action.raceNr };
  const { meeting, race } = findRace(plan, ref);
  switch (action.action) {
    case 'scratch': {
      const sref = { ...ref, startNr: action.startNr };
      const starter = starterOf(plan, sref);
      refuseRace(meeting, race, action, at);
      if (starter.scratched && starter.scratched.at <= at) {
        throw phaseError(`scratch: start ${action.startNr} in race ${action.raceNr} is scratched already`);
      }
      // What the plan still had for this start or this race's result assumed it would run.
      let next = withoutLaterForStarter(plan, sref, at, 'scratched');
      next = withoutLaterForStarter(next, sref, at, 'driverChange');
      next = withoutLaterForStarter(next, sref, at, 'stopped', (s) =>
        Boolean(s.disqualified || s.nonFinisher),
      );
      next = withoutLaterResultChanges(next, ref, at);
      return scratch(next, sref, at, action.reason ?? 'veterinary decision');
    }
    case 'change-driver': {
      const sref = { ...ref, startNr: action.startNr };
      const starter = starterOf(plan, sref);
      refuseRace(meeting, race, action, at);
      if (starter.scratched && starter.scratched.at <= at) {
        throw phaseError(`change-driver: start ${action.startNr} in race ${action.raceNr} is scratched`);
      }
      if (starter.driverChange && starter.driverChange.at <= at) {
        throw phaseError(
          `change-driver: start ${action.startNr} in race ${action.raceNr} changed driver already (${starter.driverChange.to}); a start changes once`,
        );
      }
      const rng = seededRng(
        plan.seed,
        `change-driver:${action.trackId}:${action.raceNr}:${action.startNr}:${at}`,
      );
      const to = action.driver ?? personName(rng);
      if (to === starter.driver) throw invalid(`change-driver: ${to} drives start ${action.startNr} already`);
      let next = withoutLaterForStarter(plan, sref, at, 'scratched');
      next = withoutLaterForStarter(next, sref, at, 'driverChange');
      return changeDriver(next, sref, at, to, action.reason ?? 'driver ill');
    }
    case 'delay-start': {
      refuseRace(meeting, race, action, at);
      const expected = expectedStartAt(race, at);
      const start = expected + Math.round(action.minutes * MINUTE);
      if (start >= quietFrom(meeting.date)) {
        const most = Math.floor((quietFrom(meeting.date) - expected - 1) / MINUTE);
        throw invalid(
          `delay-start: race ${action.raceNr} expected at ${clock(expected)} would start at ${clock(start)}, after 22:00; at most ${most} minutes`,
        );
      }
      const reason =
        action.reason ?? (meeting.sport === 'trot' ? 'start car failure' : 'starting stalls fault');
      const delayed = delayStart(withoutLaterStartChanges(plan, ref, at), ref, at, action.minutes, reason);
      return withLaterResultChangesMoved(plan, delayed, ref, at);
    }
    case 'false-start': {
      refuseRace(meeting, race, action, at);
      const restart = at + (action.restartAfterSeconds ?? RESTART_AFTER_SECONDS) * SECOND;
      if (restart >= quietFrom(meeting.date))
        throw invalid('false-start: the restart would come after 22:00');
      const running = phaseAt(meeting, race, at) === 'running';
      // Running, the start given is recalled now. Counting down, the start is given now (a
      // millisecond on, as a start the countdown announces comes after the announcement) and
      // recalled at once after it: nothing before the action's moment changes.
      const given = running ? actualStart(race) : at + 1;
      const recall = running ? at : at + 2;
      // falseStart drops the start changes planned from the false start on.
      const recalled = falseStart(plan, ref, given, recall, restart, action.reason ?? 'recall: false start');
      return withLaterResultChangesMoved(plan, recalled, ref, at);
    }
    case 'disqualify': {
      const sref = { ...ref, startNr: action.startNr };
      const starter = starterOf(plan, sref);
      refuseRace(meeting, race, action, at);
      const reason = action.reason ?? (meeting.sport === 'trot' ? 'galloping' : 'interference');
      if (phaseAt(meeting, race, at) === 'running') {
        // A stop already planned counts once the field's leader has passed its point: the live
        // messages sent since leave the runner out.
        const planned = (starter.disqualified ?? starter.nonFinisher)?.atMeters;
        if (starter.scratched || (planned !== undefined && planned <= leaderMetre(race, at))) {
          throw phaseError(
            `disqualify: start ${action.startNr} in race ${action.raceNr} is no longer running`,
          );
        }
        // The result changes the plan still had were drawn on a field with this runner in it.
        const next = withoutLaterResultChanges(
          withoutLaterForStarter(plan, sref, at, 'stopped', (st) =>
            Boolean(st.disqualified || st.nonFinisher),
          ),
          ref,
          at,
        );
        const stop = liveStop(next, sref, at);
        return stopRunner(next, sref, at, 'disqualified', stop.atMeters, reason, stop.announceAfterMs);
      }
      const placed = placesOf(resultState(race, at).standing);
      if (!placed.has(action.startNr)) {
        throw invalid(
          `disqualify: start ${action.startNr} is not placed in race ${action.raceNr}; placed: ${[...placed.keys()].join(', ')}`,
        );
      }
      return disqualifyAfterResult(withoutLaterResultChanges(plan, ref, at), sref, at, reason);
    }
    case 'dead-heat': {
      refuseRace(meeting, race, action, at);
      if (phaseAt(meeting, race, at) === 'finished') {
        const finishers = finishersOf(race).map((s) => s.startNr);
        const stray = action.startNrs.filter((n) => !finishers.includes(n));
        if (stray.length > 0) {
          throw invalid(
            `dead-heat: ${stray.join(', ')} did not finish race ${action.raceNr}; finishers: ${finishers.join(', ')}`,
          );
        }
        const clean = withoutLaterResultChanges(plan, ref, at);
        const photo = race.photoFinish ? clean : photoFinish(clean, ref, at, DEAD_HEAT_PHOTO_MS);
        return deadHeat(photo, ref, at, action.startNrs);
      }
      const state = resultState(race, at);
      const places = placesOf(state.standing);
      const stray = action.startNrs.filter((n) => !places.has(n));
      if (stray.length > 0) {
        throw invalid(
          `dead-heat: ${stray.join(', ')} not placed in race ${action.raceNr}; placed: ${[...places.keys()].join(', ')}`,
        );
      }
      const standing = withDeadHeat(state.standing, action.startNrs);
      const placings = [...placesOf(standing)].map(([startNr, place]) => ({ startNr, place }));
      return correctResult(
        withoutLaterResultChanges(plan, ref, at),
        ref,
        at,
        placings,
        'dead heat: the judges’ photo',
      );
    }
    case 'correct-result': {
      refuseRace(meeting, race, action, at);
      const next = withoutLaterResultChanges(plan, ref, at);
      return correctResult(
        next,
        ref,
        at,
        action.placings,
        action.reason ?? 'the judges corrected the finishing order',
      );
    }
    case 'cancel-race':
      refuseRace(meeting, race, action, at);
      return cancelRace(plan, ref, at, action.reason ?? 'track conditions');
    case 'finish-now':
      refuseRace(meeting, race, action, at);
      return finishNow(withoutLaterStartChanges(plan, ref, at), ref, at);
  }
}

function meetingAction(plan: RaceDayPlan, action: RaceDayAction, at: number): RaceDayPlan {
  const meeting = findMeeting(plan, action.trackId);
  if (action.raceNr !== undefined) findRace(plan, { trackId: action.trackId, raceNr: action.raceNr });
  const why = meetingRefusal(meeting, action.action as never, at);
  if (why) throw phaseError(`${action.action}: ${why}`);
  const clean = withoutLaterCallOff(plan, action.trackId, at);
  switch (action.action) {
    case 'cancel-meeting':
      return cancelMeeting(clean, action.trackId, at, action.reason ?? 'waterlogged track');
    case 'abandon-meeting': {
      const started = lastStarted(meeting, at)!;
      if (action.raceNr !== undefined && action.raceNr !== started.raceNr) {
        throw phaseError(
          `abandon-meeting: race ${started.raceNr} is the meeting's last started; the meeting is abandoned after it, not after race ${action.raceNr}`,
        );
      }
      return abandonMeeting(
        clean,
        action.trackId,
        started.raceNr,
        at,
        action.reason ?? 'heavy rain, unsafe track',
      );
    }
    case 'postpone-meeting': {
      const days = dayIndex(action.toDate) - dayIndex(meeting.date);
      if (days < 1 || days > POSTPONE_MAX_DAYS) {
        throw invalid(
          `postpone-meeting: "toDate" must be after ${meeting.date} and within a year, got ${action.toDate}`,
        );
      }
      const first = localMinutesOf(meeting.races[0]!.scheduledStart);
      const last = localMinutesOf(meeting.races.at(-1)!.scheduledStart);
      const shift = action.firstStart === undefined ? 0 : minutesOfDay(action.firstStart) - first;
      if (last + shift >= 22 * 60) {
        throw invalid(
          `postpone-meeting: the last race would start at ${hhmm(last + shift)}, after 22:00; the first start can be at most ${hhmm(22 * 60 - 1 - (last - first))}`,
        );
      }
      return postponeMeeting(
        clean,
        action.trackId,
        at,
        action.toDate,
        shift,
        action.reason ?? 'track conditions',
      );
    }
    default:
      throw invalid(`${action.action} is not a meeting action`);
  }
}

const minutesOfDay = (hhmmText: string) => Number(hhmmText.slice(0, 2)) * 60 + Number(hhmmText.slice(3, 5));
const hhmm = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/**
 * Applies a checked action to the plan at day time `at` with the operations the generated edge
 * cases use, so what follows is what the same case would produce. Throws, changing nothing:
 * RACE_DAY_NO_SUCH_RACE (400) for a meeting, race or start the day lacks, listing what it has;
 * RACE_DAY_PHASE (409) naming the phase and when the action is allowed; RACE_DAY_INVALID (400)
 * for arguments that do not fit the race (placings, a delay past 22:00...).
 */
export function applyAction(plan: RaceDayPlan, action: RaceDayAction, at: number): RaceDayPlan {
  if (
    action.action === 'cancel-meeting' ||
    action.action === 'abandon-meeting' ||
    action.action === 'postpone-meeting'
  ) {
    return meetingAction(plan, action, at);
  }
  return raceAction(plan, action, at);
}

/** The race's phase at `at`, for the answer. */
export function phaseOf(plan: RaceDayPlan, ref: RaceRef, at: number): Phase {
  const { meeting, race } = findRace(plan, ref);
  return phaseAt(meeting, race, at);
}
