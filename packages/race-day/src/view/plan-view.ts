import type { EdgeCasePlacement, Meeting, Race, RaceDayPlan, Starter } from '../model/types';
import { localIso } from '../time/stockholm';
import { actualStart, hurried, resultAt, runs } from '../derive/race-times';
import { phaseAt, type Phase } from '../derive/phase';
import { postPositions } from '../derive/post-positions';
import { placesOf, resultState, riderOf } from '../derive/result';
import { timeAt } from '../derive/running';

/** What a starter is doing as of the view: still in it (declared or running), out, or placed. */
export type StarterStatus = 'running' | 'scratched' | 'disqualified' | 'non-finisher' | 'placed';

export interface StarterView {
  readonly startNr: number;
  readonly postPosition: number;
  readonly horse: string;
  /** Trot: who drives. */
  readonly driver?: string;
  /** Gallop: who rides. */
  readonly jockey?: string;
  readonly trainer: string;
  readonly status: StarterStatus;
  readonly place?: number;
}

export interface RaceView {
  readonly raceNr: number;
  readonly name: string;
  readonly distance: number;
  readonly startMethod?: 'auto' | 'volte';
  readonly surface: 'dirt' | 'turf';
  readonly breed: string;
  readonly scheduledStart: string;
  readonly actualStart: string;
  readonly paradeAt: string;
  /** When the preliminary result is (or was) published; absent for a race that does not run. */
  readonly resultAt?: string;
  readonly phase: Phase;
  readonly starters: readonly StarterView[];
}

export interface MeetingView {
  readonly trackId: number;
  readonly track: string;
  readonly sport: 'trot' | 'gallop';
  readonly type: string;
  readonly date: string;
  readonly status: 'scheduled' | 'cancelled' | 'abandoned' | 'postponed';
  readonly programmeAt: string;
  readonly firstStart: string;
  readonly reason?: string;
  readonly postponedTo?: { readonly date: string; readonly firstStart: string };
  readonly abandonedAfterRace?: number;
  readonly races: readonly RaceView[];
}

/** GET /_sim/race-day and plan.json: the plan as it stands at `asOf`. */
export interface PlanView {
  readonly date: string;
  readonly seed: number;
  readonly timeZone: string;
  readonly options: { readonly meetings: string; readonly edgeCases: string };
  /** The day time the phases and statuses are taken at, local. */
  readonly asOf: string;
  readonly meetings: readonly MeetingView[];
  readonly edgeCases: readonly EdgeCasePlacement[];
}

function starterView(
  meeting: Meeting,
  race: Race,
  s: Starter,
  t: number,
  posts: Map<number, number>,
  places: Map<number, number> | undefined,
): StarterView {
  const started = runs(meeting, race) && actualStart(race) <= t;
  const passed = (m: number) => started && hurried(race, actualStart(race) + timeAt(s, race, m) * 1000) <= t;
  let status: StarterStatus = 'running';
  let place: number | undefined;
  if (s.scratched && s.scratched.at <= t) status = 'scratched';
  else if (s.disqualified && passed(s.disqualified.atMeters)) status = 'disqualified';
  else if (s.nonFinisher && passed(s.nonFinisher.atMeters)) status = 'non-finisher';
  else if (places) {
    place = places.get(s.startNr);
    status = place === undefined ? 'disqualified' : 'placed';
  }
  const changed = s.driverChange && s.driverChange.at <= t;
  const who = changed ? riderOf(s) : s.driver;
  return {
    startNr: s.startNr,
    postPosition: posts.get(s.startNr)!,
    horse: s.horse,
    ...(meeting.sport === 'trot' ? { driver: who } : { jockey: who }),
    trainer: s.trainer,
    status,
    ...(place !== undefined && { place }),
  };
}

function raceView(meeting: Meeting, race: Race, t: number): RaceView {
  const running = runs(meeting, race);
  const published = running && resultAt(race) <= t;
  const places = published ? placesOf(resultState(race, t).standing) : undefined;
  const posts = postPositions(race, t);
  return {
    raceNr: race.raceNr,
    name: race.name,
    distance: race.distance,
    ...(race.startMethod && { startMethod: race.startMethod }),
    surface: race.surface,
    breed: race.breed,
    scheduledStart: localIso(race.scheduledStart),
    actualStart: localIso(actualStart(race)),
    paradeAt: localIso(race.paradeAt),
    ...(running && { resultAt: localIso(resultAt(race)) }),
    phase: phaseAt(meeting, race, t),
    starters: race.starters.map((s) => starterView(meeting, race, s, t, posts, places)),
  };
}

function meetingStatus(meeting: Meeting, t: number): MeetingView['status'] {
  if (meeting.cancelled && meeting.cancelled.at <= t) return 'cancelled';
  if (meeting.postponed && meeting.postponed.at <= t) return 'postponed';
  if (meeting.abandoned && meeting.abandoned.at <= t) return 'abandoned';
  return 'scheduled';
}

/**
 * The plan as it stands at day time `t`: every meeting and race with its phase, every starter
 * with its post and status, and where each edge case sits. Calling off shows only once it has
 * happened; what lies ahead (the actual start) is the plan's.
 */
export function planView(plan: RaceDayPlan, t: number): PlanView {
  return {
    date: plan.date,
    seed: plan.seed,
    timeZone: plan.timeZone,
    options: { meetings: plan.meetingsOption, edgeCases: plan.edgeCasesOption },
    asOf: localIso(t),
    meetings: plan.meetings.map((meeting) => {
      const status = meetingStatus(meeting, t);
      const p = meeting.postponed;
      const reason = {
        cancelled: meeting.cancelled?.reason,
        postponed: p?.reason,
        abandoned: meeting.abandoned?.reason,
        scheduled: undefined,
      }[status];
      return {
        trackId: meeting.trackId,
        track: meeting.track,
        sport: meeting.sport,
        type: meeting.kind,
        date: meeting.date,
        status,
        programmeAt: localIso(meeting.programmeAt),
        firstStart: localIso(meeting.races[0]!.scheduledStart),
        ...(reason && { reason }),
        ...(status === 'postponed' &&
          p && { postponedTo: { date: p.toDate, firstStart: localIso(p.starts[0]!) } }),
        ...(status === 'abandoned' && { abandonedAfterRace: meeting.abandoned!.afterRace }),
        races: meeting.races.map((race) => raceView(meeting, race, t)),
      };
    }),
    edgeCases: plan.edgeCases,
  };
}
