import type { Rng } from '../random';
import type { Meeting, Race } from '../model/types';
import { localInstant } from '../time/stockholm';
import type { MeetingSlot } from './calendar';
import { breederName, horseName, ownerName, personName, uniqueNames } from './names';
import { drawRace } from './race';

/** The last race is scheduled by 21:30, so it is run before 22:00 even with a usual delay. */
const LAST_START = 21 * 60 + 30;

function raceCount(r: Rng, slot: MeetingSlot): number {
  if (slot.sport === 'gallop') return r.int(6, 9);
  // About 9.5 races a meeting (race-day-facts.md, Calendar).
  return r.weighted([7, 8, 9, 10, 11].map((n) => [n, n === 7 || n === 11 ? 1 : 3] as const));
}

/** One meeting: its programme time, races, fields and people, drawn from its own stream. */
export function drawMeeting(r: Rng, date: string, slot: MeetingSlot, taken: Set<string>): Meeting {
  const gap = () => (slot.sport === 'trot' ? r.int(20, 25) : r.pick([25, 25, 25, 30, 20]));
  const wanted = raceCount(r, slot);
  const minutes: number[] = [slot.firstStart];
  while (minutes.length < wanted) {
    const next = minutes.at(-1)! + gap();
    if (next > LAST_START) break;
    minutes.push(next);
  }
  const programmeAt = localInstant(date, 7 * 60 + r.int(0, 75));
  const people = {
    horses: uniqueNames(taken, minutes.length * 15, () => horseName(r, false)),
    coldHorses: uniqueNames(taken, 30, () => horseName(r, true)),
    drivers: uniqueNames(taken, 18, () => personName(r)),
    trainers: uniqueNames(taken, 14, () => personName(r)),
    owners: uniqueNames(taken, 24, () => ownerName(r)),
    breeders: uniqueNames(taken, 20, () => breederName(r)),
  };
  const races: Race[] = minutes.map((m, i) =>
    drawRace(
      r.fork(`race:${i + 1}`),
      {
        sport: slot.sport,
        track: slot.track.name,
        raceNr: i + 1,
        races: minutes.length,
        scheduledStart: localInstant(date, m),
        programmeAt,
      },
      people,
    ),
  );
  return {
    trackId: slot.track.id,
    track: slot.track.name,
    sport: slot.sport,
    kind: slot.kind,
    date,
    programmeAt,
    races,
  };
}
