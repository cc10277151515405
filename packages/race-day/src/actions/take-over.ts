import type { Meeting, RaceDayPlan, Starter } from '../model/types';
import { resultAt } from '../derive/race-times';
import { findRace, withMeeting, withRace, withStarter, type RaceRef, type StartRef } from '../ops/plan-edit';

/**
 * An action takes over what the plan had still ahead for the same thing: a generated day may hold
 * a delay, a recall, a correction or a scratching that has not happened yet. Each is dropped before
 * the action's own operation, so the plan stays one story in time order (an operation appends to
 * lists that are read in order) and nothing planned later undoes what the action did.
 */
export function withoutLaterStartChanges(plan: RaceDayPlan, ref: RaceRef, at: number): RaceDayPlan {
  return withRace(plan, ref, (r) =>
    r.startChanges.every((c) => c.at <= at)
      ? r
      : { ...r, startChanges: r.startChanges.filter((c) => c.at <= at) },
  );
}

export function withoutLaterResultChanges(plan: RaceDayPlan, ref: RaceRef, at: number): RaceDayPlan {
  return withRace(plan, ref, (r) =>
    r.resultChanges.every((c) => c.at <= at)
      ? r
      : { ...r, resultChanges: r.resultChanges.filter((c) => c.at <= at) },
  );
}

/**
 * After an action that moved the race's start (a delay, a false start's restart): the result
 * changes the day held for it after `at` move with its result, so a correction still follows the
 * result it corrects instead of coming before it.
 */
export function withLaterResultChangesMoved(
  before: RaceDayPlan,
  after: RaceDayPlan,
  ref: RaceRef,
  at: number,
): RaceDayPlan {
  const shift = resultAt(findRace(after, ref).race) - resultAt(findRace(before, ref).race);
  if (shift === 0) return after;
  return withRace(after, ref, (r) =>
    r.resultChanges.every((c) => c.at <= at)
      ? r
      : { ...r, resultChanges: r.resultChanges.map((c) => (c.at > at ? { ...c, at: c.at + shift } : c)) },
  );
}

/** Drops a scratching, driver change or stop of this start that lies ahead. */
export function withoutLaterForStarter(
  plan: RaceDayPlan,
  ref: StartRef,
  at: number,
  what: 'scratched' | 'driverChange' | 'stopped',
  stoppedAhead: (s: Starter) => boolean = () => false,
): RaceDayPlan {
  return withStarter(plan, ref, (s) => {
    if (what === 'scratched' && s.scratched && s.scratched.at > at) {
      const { scratched: _gone, ...rest } = s;
      return rest;
    }
    if (what === 'driverChange' && s.driverChange && s.driverChange.at > at) {
      const { driverChange: _gone, ...rest } = s;
      return rest;
    }
    if (what === 'stopped' && stoppedAhead(s)) {
      const { disqualified: _d, nonFinisher: _n, ...rest } = s;
      return rest;
    }
    return s;
  });
}

/** Drops a cancellation, postponement or abandonment of the meeting that lies ahead. */
export function withoutLaterCallOff(plan: RaceDayPlan, trackId: number, at: number): RaceDayPlan {
  return withMeeting(plan, trackId, (m) => {
    const out: { -readonly [K in keyof Meeting]: Meeting[K] } = { ...m };
    if (m.cancelled && m.cancelled.at > at) delete out.cancelled;
    if (m.postponed && m.postponed.at > at) delete out.postponed;
    if (m.abandoned && m.abandoned.at > at) delete out.abandoned;
    return out;
  });
}
