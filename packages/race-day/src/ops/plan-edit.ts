import { raceDayError } from '../errors';
import type { Meeting, Race, RaceDayPlan, Starter } from '../model/types';
import { phaseAt, type Phase } from '../derive/phase';

/** Which race an operation acts on. */
export interface RaceRef {
  readonly trackId: number;
  readonly raceNr: number;
}

export interface StartRef extends RaceRef {
  readonly startNr: number;
}

const listRaces = (plan: RaceDayPlan) =>
  plan.meetings.map((m) => `${m.trackId} (${m.track}, races 1-${m.races.length})`).join(', ');

export function findMeeting(plan: RaceDayPlan, trackId: number): Meeting {
  const meeting = plan.meetings.find((m) => m.trackId === trackId);
  if (!meeting) {
    throw raceDayError(
      'RACE_DAY_NO_SUCH_RACE',
      `no meeting at track ${trackId} on ${plan.date}; meetings: ${listRaces(plan)}`,
    );
  }
  return meeting;
}

export function findRace(plan: RaceDayPlan, ref: RaceRef): { meeting: Meeting; race: Race } {
  const meeting = findMeeting(plan, ref.trackId);
  const race = meeting.races.find((r) => r.raceNr === ref.raceNr);
  if (!race) {
    throw raceDayError(
      'RACE_DAY_NO_SUCH_RACE',
      `track ${ref.trackId} (${meeting.track}) has no race ${ref.raceNr}; its races are 1-${meeting.races.length}`,
    );
  }
  return { meeting, race };
}

export function findStarter(race: Race, ref: StartRef): Starter {
  const starter = race.starters.find((s) => s.startNr === ref.startNr);
  if (!starter) {
    throw raceDayError(
      'RACE_DAY_NO_SUCH_RACE',
      `race ${ref.raceNr} at track ${ref.trackId} has no start ${ref.startNr}; its starts are 1-${race.starters.length}`,
    );
  }
  return starter;
}

/** Refuses an operation the race's phase at `at` does not allow, naming both. */
export function requirePhase(
  meeting: Meeting,
  race: Race,
  at: number,
  allowed: readonly Phase[],
  what: string,
): Phase {
  const phase = phaseAt(meeting, race, at);
  if (!allowed.includes(phase)) {
    throw raceDayError(
      'RACE_DAY_PHASE',
      `${what}: race ${race.raceNr} at track ${meeting.trackId} is ${phase}; allowed while ${allowed.join(', ')}`,
    );
  }
  return phase;
}

export function withMeeting(plan: RaceDayPlan, trackId: number, edit: (m: Meeting) => Meeting): RaceDayPlan {
  return { ...plan, meetings: plan.meetings.map((m) => (m.trackId === trackId ? edit(m) : m)) };
}

export function withRace(plan: RaceDayPlan, ref: RaceRef, edit: (r: Race, m: Meeting) => Race): RaceDayPlan {
  return withMeeting(plan, ref.trackId, (m) => ({
    ...m,
    races: m.races.map((r) => (r.raceNr === ref.raceNr ? edit(r, m) : r)),
  }));
}

export function withStarter(
  plan: RaceDayPlan,
  ref: StartRef,
  edit: (s: Starter, r: Race) => Starter,
): RaceDayPlan {
  return withRace(plan, ref, (r) => ({
    ...r,
    starters: r.starters.map((s) => (s.startNr === ref.startNr ? edit(s, r) : s)),
  }));
}
