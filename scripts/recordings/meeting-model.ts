import { localMs, type MeetingPlan } from './day-plan';
import { round } from './format';
import type { Data } from './messages';
import { RACE_NAMES, horseName, personName, uniqueNames } from './names';
import type { Rng } from './prng';

export interface Starter {
  startNr: number;
  horse: string;
  age: number;
  sex: 'mare' | 'gelding' | 'stallion';
  rider: string;
  trainer: string;
  weightKg?: number;
  odds: number;
  strength: number;
  scratched?: { at: number; reason: string };
  /** Metres from the start where a trotter broke into gallop and was disqualified. */
  breakAt?: number;
  finish: number;
  shape: number;
}

export interface Race {
  nr: number;
  name: string;
  distance: number;
  startMethod?: 'auto' | 'volte';
  start: number;
  firstPrizeSek: number;
  starters: Starter[];
}

export interface Meeting {
  plan: MeetingPlan;
  programmeAt: number;
  races: Race[];
}

// Every draw from `r` happens in a fixed order; reordering any of them changes the committed files.
export function buildMeeting(r: Rng, plan: MeetingPlan, taken: Set<string>): Meeting {
  const trot = plan.sport === 'trot';
  const horses = uniqueNames(taken, plan.races * 14, () => horseName(r));
  const people = uniqueNames(taken, 26, () => personName(r));
  const riders = people.slice(0, 16);
  const trainers = people.slice(16);
  let start = localMs(...plan.firstStart);
  const races: Race[] = [];
  for (let nr = 1; nr <= plan.races; nr++) {
    const distance = trot
      ? r.pick([1640, 2140, 2140, 2140, 2640])
      : r.pick([1200, 1400, 1600, 1800, 2000, 2400]);
    const count = r.int(8, 12);
    const pool = [...riders];
    const starters: Starter[] = Array.from({ length: count }, (_, i) => ({
      startNr: i + 1,
      horse: horses.shift()!,
      age: r.int(3, 9),
      sex: r.pick(['mare', 'gelding', 'stallion'] as const),
      rider: pool.splice(r.int(0, pool.length - 1), 1)[0]!,
      trainer: r.pick(trainers),
      ...(trot ? {} : { weightKg: round(r.float(54, 60) * 2, 0) / 2 }),
      odds: 0,
      strength: r.float(0, 1),
      finish: 0,
      shape: r.float(-1.5, 1.5),
    }));
    const weights = starters.map((s) => Math.exp(3 * s.strength));
    const total = weights.reduce((a, b) => a + b, 0);
    starters.forEach((s, i) => (s.odds = Math.max(1.1, round((0.8 * total) / weights[i]!, 2))));
    races.push({
      nr,
      name: nr === plan.races ? `${plan.track} Stora Pris` : RACE_NAMES[plan.sport][nr - 1]!,
      distance,
      ...(trot ? { startMethod: startMethod(r, distance) } : {}),
      start,
      firstPrizeSek: nr === plan.races ? 150_000 : r.pick([30_000, 40_000, 50_000, 75_000, 100_000]),
      starters,
    });
    start += r.pick(plan.gapsMin) * 60_000;
  }
  scratch(r, plan, races);
  for (const race of races) runRace(r, trot, race);
  return { plan, programmeAt: localMs(...plan.programmeAt), races };
}

// Volte starts are for the longer distances; 2640 m is always one.
const startMethod = (r: Rng, distance: number) =>
  distance === 2640 || (distance === 2140 && r.chance(0.3)) ? ('volte' as const) : ('auto' as const);

/** Morning scratchings, plus one late one shortly before its race; at most one per race. */
function scratch(r: Rng, plan: MeetingPlan, races: Race[]): void {
  const reasons = ['sick', 'lame', 'veterinary decision', "trainer's decision"];
  const order = [...races].sort((a, b) => a.starters.length - b.starters.length).reverse();
  order.slice(0, plan.scratchings).forEach((race, i) => {
    const starter = r.pick(race.starters);
    const late = i === plan.scratchings - 1;
    const at = late
      ? race.start - r.int(20, 45) * 60_000
      : localMs(8, 0) + r.int(0, 210) * 60_000 + r.int(0, 59) * 1000;
    starter.scratched = { at, reason: late ? 'veterinary decision' : r.pick(reasons) };
  });
}

function runRace(r: Rng, trot: boolean, race: Race): void {
  const runners = race.starters.filter((s) => !s.scratched);
  const order = runners
    .map((s) => ({ s, score: s.strength + r.float(0, 0.6) }))
    .sort((a, b) => b.score - a.score);
  let time = trot ? (r.float(71.5, 76) * race.distance) / 1000 : race.distance / r.float(16.2, 16.9);
  for (const { s } of order) {
    s.finish = time;
    time += trot ? r.float(0.1, 1.2) : r.float(0.03, 0.5);
  }
  if (!trot) return;
  let breaks = 0;
  for (const { s } of order) {
    if (breaks < 2 && r.chance(0.08)) {
      s.breakAt = Math.round((race.distance * r.float(0.15, 0.9)) / 10) * 10;
      breaks += 1;
    }
  }
}

/** Seconds after the start when a runner passes `d` metres: even pace bent by its race shape. */
export const timeAt = (s: Starter, race: Race, d: number) =>
  s.finish * (d / race.distance) + s.shape * Math.sin((Math.PI * d) / race.distance);

export function field(race: Race, d: number, names: boolean): { leaderTime: number; positions: Data[] } {
  const running = race.starters.filter((s) => !s.scratched && (s.breakAt === undefined || s.breakAt > d));
  const ranked = running.map((s) => ({ s, t: timeAt(s, race, d) })).sort((a, b) => a.t - b.t);
  const leaderTime = ranked[0]!.t;
  const positions = ranked.map(({ s, t }, i) => ({
    position: i + 1,
    startNr: s.startNr,
    ...(names ? { horse: s.horse } : {}),
    behindSeconds: round(t - leaderTime, 2),
  }));
  return { leaderTime, positions };
}
