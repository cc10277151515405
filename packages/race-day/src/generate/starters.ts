import type { Rng } from '../random';
import { distinctTimes } from './distinct-times';
import type { Breed, Sex, Sport, Starter, StartMethod } from '../model/types';

/** The people and horses a meeting draws its starters from. */
export interface MeetingPeople {
  readonly horses: string[];
  readonly coldHorses: string[];
  readonly drivers: readonly string[];
  readonly trainers: readonly string[];
  readonly owners: readonly string[];
  readonly breeders: readonly string[];
}

export interface FieldSpec {
  readonly sport: Sport;
  readonly breed: Breed;
  readonly distance: number;
  readonly startMethod?: StartMethod;
  readonly count: number;
  /** Seconds for the winner to run the race's distance. */
  readonly winnerSeconds: number;
}

const round = (x: number, decimals: number) => Math.round(x * 10 ** decimals) / 10 ** decimals;

/** Volte tiers: how many start 20 and 40 m behind the front. */
function volteTiers(r: Rng, count: number): number[] {
  const back40 = count >= 10 ? r.int(0, 3) : r.int(0, 1);
  const back20 = r.int(0, Math.min(5, count - back40 - 5));
  const handicaps = [
    ...Array<number>(count - back20 - back40).fill(0),
    ...Array<number>(back20).fill(20),
    ...Array<number>(back40).fill(40),
  ];
  return handicaps;
}

/**
 * A race's field: start numbers, posts, people, odds and how each will run. Start numbers follow
 * the draw in trot (volte: tier by tier, posts numbered again from 1 in each tier) and the
 * weights in gallop (top weight 1), whose stalls are drawn apart from them.
 */
export function drawField(r: Rng, spec: FieldSpec, people: MeetingPeople): Starter[] {
  const trot = spec.sport === 'trot';
  const handicaps =
    spec.startMethod === 'volte' ? volteTiers(r, spec.count) : Array<number>(spec.count).fill(0);
  const weights = trot
    ? []
    : Array.from({ length: spec.count }, () => round(r.float(52, 62) * 2, 0) / 2).sort((a, b) => b - a);
  const stalls = r.shuffle(Array.from({ length: spec.count }, (_, i) => i + 1));
  const riders = r.shuffle(people.drivers);
  const abilities = Array.from({ length: spec.count }, () => r.float(0, 1));
  const horsePool = spec.breed === 'coldblood' ? people.coldHorses : people.horses;
  const tierPosition = new Map<number, number>();
  const starters = Array.from({ length: spec.count }, (_, i): Omit<Starter, 'odds' | 'finishSeconds'> => {
    const handicap = handicaps[i]!;
    const inTier = (tierPosition.get(handicap) ?? 0) + 1;
    tierPosition.set(handicap, inTier);
    return {
      startNr: i + 1,
      horse: horsePool.shift() ?? `Häst ${i + 1}`,
      age: trot ? r.int(3, 10) : r.int(2, 8),
      sex: r.pick<Sex>(['mare', 'gelding', 'stallion']),
      driver: riders[i % riders.length]!,
      trainer: r.pick(people.trainers),
      owner: r.pick(people.owners),
      breeder: r.pick(people.breeders),
      drawnPosition: trot ? inTier : stalls[i]!,
      ...(spec.startMethod === 'volte' && { handicapMeters: handicap }),
      ...(!trot && { weightKg: weights[i]! }),
      shape: round(r.float(-1.5, 1.5), 2),
    };
  });
  // The finish order: ability and the day's luck; a handicap costs its metres at the race's pace.
  const pace = spec.winnerSeconds / spec.distance;
  const order = starters
    .map((s, i) => ({ i, score: abilities[i]! + r.float(0, 0.6) - (s.handicapMeters ?? 0) * 0.004 }))
    .sort((a, b) => b.score - a.score);
  const finish = new Array<number>(spec.count);
  let behind = 0;
  for (const { i } of order) {
    const own = spec.distance + (starters[i]!.handicapMeters ?? 0);
    finish[i] = round(pace * own + behind, 2);
    behind += trot ? round(r.float(0.1, 1.4), 2) : round(r.float(0.04, 0.6), 2);
  }
  const strength = abilities.map((a) => Math.exp(3 * a));
  const total = strength.reduce((a, b) => a + b, 0);
  // Hundredths apart at least, so only a dead heat (an edge case) shares a finish.
  return distinctTimes(
    starters.map((s, i) => ({
      ...s,
      odds: Math.max(1.05, round((0.8 * total) / strength[i]!, 2)),
      finishSeconds: finish[i]!,
    })),
  );
}
