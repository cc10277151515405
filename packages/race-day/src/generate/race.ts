import type { Rng } from '../random';
import type { Breed, Race, Sport, StartMethod, Surface } from '../model/types';
import { RACE_NAMES } from './names';
import { drawField, type MeetingPeople } from './starters';

const MINUTE = 60_000;

export interface RaceSpec {
  readonly sport: Sport;
  readonly track: string;
  readonly raceNr: number;
  readonly races: number;
  readonly scheduledStart: number;
  readonly programmeAt: number;
}

// race-day-facts.md, A race: trot distances and about half autostart; gallop 1000-3000 m.
const TROT_DISTANCES: ReadonlyArray<readonly [number, number]> = [
  [1609, 10],
  [1640, 26],
  [2140, 46],
  [2640, 12],
  [3140, 6],
];
const GALLOP_DISTANCES = [1000, 1200, 1400, 1600, 1700, 1800, 2000, 2100, 2200, 2400, 2800, 3000];
const PRIZES = [30_000, 40_000, 50_000, 60_000, 75_000, 100_000, 125_000];

function trotStartMethod(r: Rng, distance: number): StartMethod {
  if (distance <= 1640) return r.chance(0.9) ? 'auto' : 'volte';
  if (distance === 2140) return r.chance(0.55) ? 'auto' : 'volte';
  return r.chance(0.15) ? 'auto' : 'volte';
}

/** Seconds for the winner: km times 1.09-1.22 warmblood, 1.20-1.40 coldblood; gallop ~60 s/1000 m. */
function winnerSeconds(r: Rng, sport: Sport, breed: Breed, distance: number, method?: StartMethod): number {
  if (sport === 'gallop') return (distance / 1000) * r.float(57, 63);
  const volte = method === 'volte' ? 2.5 : 0;
  const long = distance >= 2640 ? 1.5 : 0;
  const perKm = breed === 'coldblood' ? r.float(80, 90) + volte + long : r.float(69.5, 75.5) + volte + long;
  return (distance / 1000) * Math.min(perKm, breed === 'coldblood' ? 99.5 : 81.5);
}

function countFor(r: Rng, sport: Sport, method?: StartMethod): number {
  if (sport === 'gallop')
    return r.weighted(
      [5, 6, 7, 8, 9, 10, 11, 12, 13, 14].map((n) => [n, n >= 8 && n <= 11 ? 3 : 1] as const),
    );
  if (method === 'auto')
    return r.weighted([6, 7, 8, 9, 10, 11, 12].map((n) => [n, n >= 10 ? 4 : 1] as const));
  return r.weighted(
    [6, 7, 8, 9, 10, 11, 12, 13, 14, 15].map((n) => [n, n >= 10 && n <= 13 ? 3 : 1] as const),
  );
}

function termsOf(sport: Sport, breed: Breed, distance: number, method?: StartMethod, r?: Rng): string {
  if (sport === 'gallop')
    return `${r?.pick(['2-åriga', '3-åriga', '3-åriga och äldre', '4-åriga och äldre'])} ston och hingstar. ${distance} m.`;
  const who = breed === 'coldblood' ? 'Kallblodiga' : 'Varmblodiga';
  const age = r?.pick(['3-åriga', '4-åriga', '3-åriga och äldre', '4-åriga och äldre']) ?? '';
  return `${who} ${age}. ${distance} m ${method === 'volte' ? 'voltstart' : 'autostart'}.`;
}

/** One race as the morning programme has it, before any edge case or scratching. */
export function drawRace(r: Rng, spec: RaceSpec, people: MeetingPeople): Race {
  const trot = spec.sport === 'trot';
  const breed: Breed = trot ? (r.chance(0.15) ? 'coldblood' : 'warmblood') : 'thoroughbred';
  const distance = trot
    ? breed === 'coldblood'
      ? r.pick([1640, 2140, 2140, 2640])
      : r.weighted(TROT_DISTANCES)
    : r.pick(GALLOP_DISTANCES);
  const startMethod = trot ? trotStartMethod(r, distance) : undefined;
  const surface: Surface = trot ? 'dirt' : r.chance(0.6) ? 'turf' : 'dirt';
  const count = countFor(r, spec.sport, startMethod);
  const seconds =
    winnerSeconds(r, spec.sport, breed, distance, startMethod) * (surface === 'dirt' && !trot ? 1.02 : 1);
  const starters = drawField(
    r,
    {
      sport: spec.sport,
      breed,
      distance,
      ...(startMethod && { startMethod }),
      count,
      winnerSeconds: seconds,
    },
    people,
  );
  // Observed delays after the scheduled start (race-day-facts.md): 7-170 s auto, 97-376 s volte.
  const delaySeconds =
    startMethod === 'volte' ? r.int(97, 376) : startMethod === 'auto' ? r.int(7, 170) : r.int(0, 120);
  const last = spec.raceNr === spec.races;
  const names = RACE_NAMES[spec.sport];
  const name = last
    ? `${spec.track} Stora Pris`
    : breed === 'coldblood'
      ? 'Kallblodsloppet'
      : names[(spec.raceNr - 1) % names.length]!;
  return {
    raceNr: spec.raceNr,
    name,
    terms: termsOf(spec.sport, breed, distance, startMethod, r),
    breed,
    distance,
    ...(startMethod && { startMethod }),
    surface,
    firstPrizeSek: last ? 150_000 : r.pick(PRIZES),
    scheduledStart: spec.scheduledStart,
    paradeAt: spec.scheduledStart - 10 * MINUTE,
    plannedStart: spec.scheduledStart + delaySeconds * 1000,
    startChanges: [],
    resultDelayMs: r.int(60, 300) * 1000,
    resultChanges: [],
    starters,
  };
}
