import { raceDayError } from '../errors';
import type { RaceDayPlan } from '../model/types';
import { runnersOf } from '../derive/race-times';
import { timeAt } from '../derive/running';
import { actualStart } from '../derive/race-times';
import { findRace, findStarter, requirePhase, withStarter, type StartRef } from './plan-edit';

/** Starters a race keeps at least: a scratching that would leave fewer is refused. */
export const MIN_RUNNERS = 2;

/** Scratches a start; post positions outside it move in (derive/post-positions). */
export function scratch(
  plan: RaceDayPlan,
  ref: StartRef,
  at: number,
  reason: string,
  stable?: string,
): RaceDayPlan {
  const { meeting, race } = findRace(plan, ref);
  const starter = findStarter(race, ref);
  requirePhase(meeting, race, at, ['scheduled', 'parade', 'countdown'], 'scratch');
  if (starter.scratched) {
    throw raceDayError('RACE_DAY_PHASE', `start ${ref.startNr} in race ${ref.raceNr} is scratched already`);
  }
  if (runnersOf(race).length <= MIN_RUNNERS) {
    throw raceDayError('RACE_DAY_PHASE', `race ${ref.raceNr} keeps at least ${MIN_RUNNERS} starters`);
  }
  const afterParade = at >= race.paradeAt;
  return withStarter(plan, ref, (s) => ({
    ...s,
    scratched: { at, reason, afterParade, ...(stable && { stable }) },
  }));
}

/** A new driver (jockey) for a start; the start list keeps the original one known. */
export function changeDriver(
  plan: RaceDayPlan,
  ref: StartRef,
  at: number,
  to: string,
  reason: string,
): RaceDayPlan {
  const { meeting, race } = findRace(plan, ref);
  const starter = findStarter(race, ref);
  requirePhase(meeting, race, at, ['scheduled', 'parade', 'countdown'], 'change-driver');
  if (starter.scratched) throw raceDayError('RACE_DAY_PHASE', `start ${ref.startNr} is scratched`);
  return withStarter(plan, ref, (s) => ({ ...s, driverChange: { at, from: s.driver, to, reason } }));
}

/**
 * A runner leaves the race `atMeters` in: disqualified (announced live) or not finishing. Before
 * the start any point of the race may be named; while it runs, only a point still ahead.
 */
export function stopRunner(
  plan: RaceDayPlan,
  ref: StartRef,
  at: number,
  how: 'disqualified' | 'nonFinisher',
  atMeters: number,
  reason: string,
  announceAfterMs = 0,
): RaceDayPlan {
  const { meeting, race } = findRace(plan, ref);
  const starter = findStarter(race, ref);
  const phase = requirePhase(
    meeting,
    race,
    at,
    ['scheduled', 'parade', 'countdown', 'running'],
    how === 'disqualified' ? 'disqualify' : 'non-finisher',
  );
  if (starter.scratched || starter.disqualified || starter.nonFinisher) {
    throw raceDayError('RACE_DAY_PHASE', `start ${ref.startNr} in race ${ref.raceNr} is no longer running`);
  }
  if (!(atMeters > 0 && atMeters < race.distance)) {
    throw raceDayError('RACE_DAY_INVALID', `atMeters must be within the race's ${race.distance} m`);
  }
  // While it runs, the point may lie behind the runner only when the news of it is still to come.
  if (
    phase === 'running' &&
    actualStart(race) + timeAt(starter, race, atMeters) * 1000 + announceAfterMs < at
  ) {
    throw raceDayError('RACE_DAY_PHASE', `start ${ref.startNr} has passed ${atMeters} m already`);
  }
  return withStarter(plan, ref, (s) => ({ ...s, [how]: { atMeters, reason, announceAfterMs } }));
}
