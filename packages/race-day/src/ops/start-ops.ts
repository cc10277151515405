import { raceDayError } from '../errors';
import type { RaceDayPlan } from '../model/types';
import { countdownFrom, expectedStartAt } from '../derive/race-times';
import { findRace, requirePhase, withRace, type RaceRef } from './plan-edit';

const MINUTE = 60_000;

/**
 * A later start announced at `at`: the countdown jumps up by `minutes`. Announced before the
 * parade countdown, the parade moves with it.
 */
export function delayStart(
  plan: RaceDayPlan,
  ref: RaceRef,
  at: number,
  minutes: number,
  reason: string,
): RaceDayPlan {
  const { meeting, race } = findRace(plan, ref);
  requirePhase(meeting, race, at, ['scheduled', 'parade', 'countdown'], 'delay-start');
  if (!(minutes > 0)) throw raceDayError('RACE_DAY_INVALID', 'a delay is more than 0 minutes');
  const start = expectedStartAt(race, at) + Math.round(minutes * MINUTE);
  return withRace(plan, ref, (r) => ({
    ...r,
    paradeAt: at < countdownFrom(r) ? r.paradeAt + Math.round(minutes * MINUTE) : r.paradeAt,
    startChanges: [...r.startChanges, { at, kind: 'delay', start, reason }],
  }));
}

/**
 * A false start: the start given at `falseStartAt` (the countdown's 0) is recalled at `at`, and
 * the countdown runs again to `restartAt`.
 */
export function falseStart(
  plan: RaceDayPlan,
  ref: RaceRef,
  falseStartAt: number,
  at: number,
  restartAt: number,
  reason = 'recall: false start',
): RaceDayPlan {
  const { meeting, race } = findRace(plan, ref);
  requirePhase(meeting, race, falseStartAt - 1, ['parade', 'countdown', 'scheduled'], 'false-start');
  if (!(falseStartAt < at && at < restartAt)) {
    throw raceDayError('RACE_DAY_INVALID', 'a recall comes after the false start and before the restart');
  }
  return withRace(plan, ref, (r) => ({
    ...r,
    // The false start was given when the countdown reached 0: that start, as it was known then.
    startChanges: [
      ...r.startChanges.filter((c) => c.at < falseStartAt),
      ...(expectedStartAt(r, falseStartAt - 1) === falseStartAt
        ? []
        : [{ at: falseStartAt - 1, kind: 'delay' as const, start: falseStartAt, reason: 'start' }]),
      { at, kind: 'recall', start: restartAt, reason, falseStartAt },
    ],
  }));
}
