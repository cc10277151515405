import { raceDayError } from '../errors';
import type { RaceDayPlan, ResultChange } from '../model/types';
import { actualStart, finishersOf } from '../derive/race-times';
import { placesOf, resultState, standingOf } from '../derive/result';
import { findRace, requirePhase, withRace, type RaceRef } from './plan-edit';

/** The judges study a photo: the preliminary result comes `extraMs` later than it would. */
export function photoFinish(plan: RaceDayPlan, ref: RaceRef, at: number, extraMs: number): RaceDayPlan {
  const { meeting, race } = findRace(plan, ref);
  requirePhase(
    meeting,
    race,
    at,
    ['scheduled', 'parade', 'countdown', 'running', 'finished'],
    'photo-finish',
  );
  return withRace(plan, ref, (r) => ({ ...r, photoFinish: true, resultDelayMs: r.resultDelayMs + extraMs }));
}

/**
 * Two (or more) runners cross the line together: they get the better one's time, so they share
 * its place and the next place stays empty. Before the result is out; after it, correct it.
 */
export function deadHeat(
  plan: RaceDayPlan,
  ref: RaceRef,
  at: number,
  startNrs: readonly number[],
): RaceDayPlan {
  const { meeting, race } = findRace(plan, ref);
  requirePhase(meeting, race, at, ['scheduled', 'parade', 'countdown', 'running', 'finished'], 'dead-heat');
  const finishers = finishersOf(race);
  const chosen = finishers.filter((s) => startNrs.includes(s.startNr));
  if (startNrs.length < 2 || chosen.length !== new Set(startNrs).size) {
    throw raceDayError(
      'RACE_DAY_INVALID',
      `a dead heat needs two or more finishers; finishers: ${finishers.map((s) => s.startNr).join(', ')}`,
    );
  }
  const time = Math.min(...chosen.map((s) => s.finishSeconds));
  const taken = new Set(finishers.filter((s) => !startNrs.includes(s.startNr)).map((s) => s.finishSeconds));
  return withRace(plan, ref, (r) => ({
    ...r,
    starters: r.starters.map((s) => {
      if (startNrs.includes(s.startNr)) return { ...s, finishSeconds: time };
      // Anyone else on exactly that time finishes a hundredth behind: only the chosen share it.
      if (!taken.has(s.finishSeconds) || s.finishSeconds !== time) return s;
      return { ...s, finishSeconds: Math.round((time + 0.01) * 100) / 100 };
    }),
  }));
}

function addChange(plan: RaceDayPlan, ref: RaceRef, change: ResultChange): RaceDayPlan {
  const { meeting, race } = findRace(plan, ref);
  requirePhase(
    meeting,
    race,
    change.at,
    ['result'],
    change.kind === 'correction' ? 'correct-result' : change.kind,
  );
  if (race.resultChanges.some((c) => c.at > change.at)) {
    throw raceDayError('RACE_DAY_PHASE', 'a result change comes after the ones made before it');
  }
  return withRace(plan, ref, (r) => ({ ...r, resultChanges: [...r.resultChanges, change] }));
}

/** Replaces the published result with these placings: every placed start once, places 1..n. */
export function correctResult(
  plan: RaceDayPlan,
  ref: RaceRef,
  at: number,
  placings: ReadonlyArray<{ startNr: number; place: number }>,
  reason: string,
): RaceDayPlan {
  const { race } = findRace(plan, ref);
  const placed = [...placesOf(resultState(race, at).standing).keys()].sort((a, b) => a - b);
  const given = placings.map((p) => p.startNr).sort((a, b) => a - b);
  const sameStarts = given.length === placed.length && given.every((n, i) => n === placed[i]);
  const expected = placesOf(standingOf(placings));
  const consistent = placings.every((p) => expected.get(p.startNr) === p.place);
  if (!sameStarts || !consistent) {
    throw raceDayError(
      'RACE_DAY_INVALID',
      `placings must place each of ${placed.join(', ')} once, places counted from 1 (a shared place leaves the next one empty)`,
    );
  }
  return addChange(plan, ref, { at, kind: 'correction', reason, placings: [...placings] });
}

export function disqualifyAfterResult(
  plan: RaceDayPlan,
  ref: RaceRef & { startNr: number },
  at: number,
  reason: string,
): RaceDayPlan {
  const { race } = findRace(plan, ref);
  if (!placesOf(resultState(race, at).standing).has(ref.startNr)) {
    throw raceDayError('RACE_DAY_INVALID', `start ${ref.startNr} is not placed in race ${ref.raceNr}`);
  }
  return addChange(plan, ref, { at, kind: 'disqualification', reason, startNr: ref.startNr });
}

/** Moves a placed start down to `toPlace` (since 2017 instead of disqualifying). */
export function demote(
  plan: RaceDayPlan,
  ref: RaceRef & { startNr: number },
  at: number,
  toPlace: number,
  reason: string,
): RaceDayPlan {
  const { race } = findRace(plan, ref);
  const places = placesOf(resultState(race, at).standing);
  const from = places.get(ref.startNr);
  if (from === undefined || !(toPlace > from && toPlace <= places.size)) {
    throw raceDayError(
      'RACE_DAY_INVALID',
      `start ${ref.startNr} can be moved down from place ${from ?? '-'} to at most ${places.size}`,
    );
  }
  return addChange(plan, ref, { at, kind: 'demotion', reason, startNr: ref.startNr, toPlace });
}

/**
 * The race runs to its finish at once (a simulator's shortcut, not a thing of the domain): what
 * its running still had ahead goes out at `at`, and the result follows after its usual delay. A
 * race still counting down is started at `at` first.
 */
export function finishNow(plan: RaceDayPlan, ref: RaceRef, at: number): RaceDayPlan {
  const { meeting, race } = findRace(plan, ref);
  requirePhase(meeting, race, at, ['countdown', 'running'], 'finish-now');
  return withRace(plan, ref, (r) => ({
    ...r,
    startChanges:
      at < actualStart(r)
        ? [...r.startChanges.filter((c) => c.at <= at), { at, kind: 'now', start: at, reason: 'finish-now' }]
        : r.startChanges,
    finishNow: { at },
  }));
}
