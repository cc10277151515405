import { raceDayError } from '../errors';
import type { RaceDayPlan, Surface } from '../model/types';
import { dayIndex, isRealDate } from '../time/dates';
import { localInstant, localMinutesOf } from '../time/stockholm';
import { actualStart } from '../derive/race-times';
import { phaseAt } from '../derive/phase';
import { distinctTimes } from '../generate/distinct-times';
import { findMeeting, findRace, requirePhase, withMeeting, withRace, type RaceRef } from './plan-edit';

export function cancelRace(plan: RaceDayPlan, ref: RaceRef, at: number, reason: string): RaceDayPlan {
  const { meeting, race } = findRace(plan, ref);
  requirePhase(meeting, race, at, ['scheduled', 'parade', 'countdown'], 'cancel-race');
  return withRace(plan, ref, (r) => ({ ...r, cancelled: { at, reason } }));
}

function beforeFirstStart(plan: RaceDayPlan, trackId: number, at: number, what: string) {
  const meeting = findMeeting(plan, trackId);
  if (meeting.cancelled || meeting.postponed || meeting.abandoned) {
    throw raceDayError('RACE_DAY_PHASE', `${what}: the meeting at track ${trackId} is called off already`);
  }
  const first = meeting.races[0]!;
  if (at >= actualStart(first)) {
    throw raceDayError(
      'RACE_DAY_PHASE',
      `${what}: the meeting at track ${trackId} has started; abandon it instead`,
    );
  }
  return meeting;
}

/** Calls the whole meeting off before its first race, after its programme went out. */
export function cancelMeeting(plan: RaceDayPlan, trackId: number, at: number, reason: string): RaceDayPlan {
  beforeFirstStart(plan, trackId, at, 'cancel-meeting');
  return withMeeting(plan, trackId, (m) => ({ ...m, cancelled: { at, reason } }));
}

/**
 * Stops a meeting after race `afterRace` has started (it runs on to its result): the later races
 * are called off. The next race must not have started.
 */
export function abandonMeeting(
  plan: RaceDayPlan,
  trackId: number,
  afterRace: number,
  at: number,
  reason: string,
): RaceDayPlan {
  const meeting = findMeeting(plan, trackId);
  const { race } = findRace(plan, { trackId, raceNr: afterRace });
  const next = meeting.races.find((r) => r.raceNr === afterRace + 1);
  if (!next)
    throw raceDayError(
      'RACE_DAY_INVALID',
      `race ${afterRace} is the meeting's last; nothing is left to abandon`,
    );
  if (meeting.cancelled || meeting.postponed || meeting.abandoned) {
    throw raceDayError(
      'RACE_DAY_PHASE',
      `abandon-meeting: the meeting at track ${trackId} is called off already`,
    );
  }
  if (
    at < actualStart(race) ||
    !['scheduled', 'parade', 'countdown', 'cancelled'].includes(phaseAt(meeting, next, at))
  ) {
    throw raceDayError(
      'RACE_DAY_PHASE',
      `abandon-meeting: after race ${afterRace} has started and before race ${afterRace + 1} starts`,
    );
  }
  return withMeeting(plan, trackId, (m) => ({ ...m, abandoned: { at, afterRace, reason } }));
}

/**
 * Moves the meeting to `toDate` with new times: the races keep their order and spacing, the first
 * starting `shiftMinutes` later in the day than it would have.
 */
export function postponeMeeting(
  plan: RaceDayPlan,
  trackId: number,
  at: number,
  toDate: string,
  shiftMinutes: number,
  reason: string,
): RaceDayPlan {
  const meeting = beforeFirstStart(plan, trackId, at, 'postpone-meeting');
  if (!isRealDate(toDate) || dayIndex(toDate) <= dayIndex(meeting.date)) {
    throw raceDayError('RACE_DAY_INVALID', `toDate must be a real date after ${meeting.date}`);
  }
  const starts = meeting.races.map((r) => {
    const minutes = localMinutesOf(r.scheduledStart) + shiftMinutes;
    return localInstant(toDate, minutes);
  });
  return withMeeting(plan, trackId, (m) => ({ ...m, postponed: { at, toDate, reason, starts } }));
}

/** A gallop race moved to another surface: it runs about 2 % slower on dirt. */
export function changeSurface(
  plan: RaceDayPlan,
  ref: RaceRef,
  at: number,
  to: Surface,
  reason: string,
): RaceDayPlan {
  const { meeting, race } = findRace(plan, ref);
  requirePhase(meeting, race, at, ['scheduled', 'parade', 'countdown'], 'surface-change');
  if (meeting.sport !== 'gallop' || race.surface === to) {
    throw raceDayError(
      'RACE_DAY_INVALID',
      `surface-change moves a gallop race off ${race.surface}; race ${ref.raceNr} cannot go to ${to}`,
    );
  }
  const factor = to === 'dirt' ? 1.02 : 1 / 1.02;
  return withRace(plan, ref, (r) => ({
    ...r,
    surface: to,
    surfaceChange: { at, from: r.surface, to, reason },
    starters: distinctTimes(
      r.starters.map((s) => ({ ...s, finishSeconds: Math.round(s.finishSeconds * factor * 100) / 100 })),
    ),
  }));
}
