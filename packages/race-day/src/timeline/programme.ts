import type { Meeting, Race } from '../model/types';
import { localIso } from '../time/stockholm';
import { postPositions } from '../derive/post-positions';
import { riderOf } from '../derive/result';

type Payload = Record<string, unknown>;

export const riderField = (meeting: Pick<Meeting, 'sport'>): 'driver' | 'jockey' =>
  meeting.sport === 'trot' ? 'driver' : 'jockey';

/** The race as a programme lists it, `starts` giving the scheduled start (a postponement's new one). */
export function raceEntry(race: Race, start: number, called: boolean): Payload {
  return {
    raceNr: race.raceNr,
    name: race.name,
    startTime: localIso(start),
    distance: race.distance,
    ...(race.startMethod && { startMethod: race.startMethod }),
    surface: race.surface,
    breed: race.breed,
    terms: race.terms,
    starters: race.starters.length,
    firstPrizeSek: race.firstPrizeSek,
    status: called ? 'cancelled' : 'scheduled',
  };
}

/** A start list as of `t`: post positions after the scratchings so far, drivers after changes. */
export function startListPayload(
  meeting: Meeting,
  race: Race,
  t: number,
  revision: number,
  start = race.scheduledStart,
): Payload {
  const rider = riderField(meeting);
  const posts = postPositions(race, t);
  return {
    track: meeting.track,
    name: race.name,
    startTime: localIso(start),
    distance: race.distance,
    ...(race.startMethod && { startMethod: race.startMethod }),
    surface: race.surface,
    terms: race.terms,
    revision,
    starters: race.starters.map((s) => {
      const scratched = s.scratched !== undefined && s.scratched.at <= t;
      const changed = s.driverChange !== undefined && s.driverChange.at <= t;
      return {
        startNr: s.startNr,
        postPosition: posts.get(s.startNr)!,
        horse: s.horse,
        age: s.age,
        sex: s.sex,
        [rider]: changed ? riderOf(s) : s.driver,
        ...(changed && { [rider === 'driver' ? 'originalDriver' : 'originalJockey']: s.driver }),
        trainer: s.trainer,
        owner: s.owner,
        breeder: s.breeder,
        ...(s.weightKg !== undefined && { weightKg: s.weightKg }),
        ...(s.handicapMeters !== undefined && {
          handicapMeters: s.handicapMeters,
          distance: race.distance + s.handicapMeters,
        }),
        odds: s.odds,
        status: scratched ? 'scratched' : 'starting',
      };
    }),
  };
}
