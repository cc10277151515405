import type { Race, ResultChange, Starter } from '../model/types';
import { finishersOf } from './race-times';

/** Start numbers in finishing order; those in one group share a place. */
export type Standing = number[][];

/** Places 1-8 are paid: the share of the first prize each place gets. */
export const PRIZE_SHARES = [1, 0.5, 0.24, 0.16, 0.1, 0.08, 0.06, 0.04];

/** As they crossed the line: equal times share a place (a dead heat). */
export function finishStanding(race: Race): Standing {
  const sorted = [...finishersOf(race)].sort(
    (a, b) => a.finishSeconds - b.finishSeconds || a.startNr - b.startNr,
  );
  const groups: Standing = [];
  let last: number | undefined;
  for (const s of sorted) {
    if (last !== undefined && s.finishSeconds === last) groups.at(-1)!.push(s.startNr);
    else groups.push([s.startNr]);
    last = s.finishSeconds;
  }
  return groups;
}

/** Place of each start number: 1 + how many are ahead, so the place after a dead heat stays empty. */
export function placesOf(standing: Standing): Map<number, number> {
  const places = new Map<number, number>();
  let ahead = 0;
  for (const group of standing) {
    for (const startNr of group) places.set(startNr, ahead + 1);
    ahead += group.length;
  }
  return places;
}

const without = (standing: Standing, startNr: number): Standing =>
  standing.map((g) => g.filter((n) => n !== startNr)).filter((g) => g.length > 0);

/** Moves a start down to `toPlace` (or as near below it as the groups allow). */
function demoted(standing: Standing, startNr: number, toPlace: number): Standing {
  const rest = without(standing, startNr);
  let ahead = 0;
  let index = 0;
  while (index < rest.length && ahead + 1 < toPlace) {
    ahead += rest[index]!.length;
    index++;
  }
  return [...rest.slice(0, index), [startNr], ...rest.slice(index)];
}

/** A correction's placings as a standing. */
export function standingOf(placings: ReadonlyArray<{ startNr: number; place: number }>): Standing {
  const byPlace = new Map<number, number[]>();
  for (const p of placings) byPlace.set(p.place, [...(byPlace.get(p.place) ?? []), p.startNr]);
  return [...byPlace.entries()].sort((a, b) => a[0] - b[0]).map(([, group]) => group.sort((a, b) => a - b));
}

export interface ResultState {
  /** 1 for the preliminary result, one more per change. */
  readonly revision: number;
  readonly standing: Standing;
  /** Disqualified after the result was out, with why. */
  readonly disqualifiedAfter: ReadonlyArray<{ startNr: number; reason: string }>;
  readonly demotions: ReadonlyArray<{ startNr: number; fromPlace: number; toPlace: number; reason: string }>;
  /** The change that made this revision, for revisions after the first. */
  readonly change?: ResultChange;
}

/** The result after the changes made by `t` (or all of them). */
export function resultState(race: Race, t = Number.POSITIVE_INFINITY): ResultState {
  let standing = finishStanding(race);
  let revision = 1;
  let change: ResultChange | undefined;
  const disqualifiedAfter: Array<{ startNr: number; reason: string }> = [];
  const demotions: Array<{ startNr: number; fromPlace: number; toPlace: number; reason: string }> = [];
  for (const c of race.resultChanges) {
    if (c.at > t) break;
    if (c.kind === 'disqualification' && c.startNr !== undefined) {
      standing = without(standing, c.startNr);
      disqualifiedAfter.push({ startNr: c.startNr, reason: c.reason });
    } else if (c.kind === 'demotion' && c.startNr !== undefined && c.toPlace !== undefined) {
      const fromPlace = placesOf(standing).get(c.startNr) ?? 0;
      standing = demoted(standing, c.startNr, c.toPlace);
      demotions.push({
        startNr: c.startNr,
        fromPlace,
        toPlace: placesOf(standing).get(c.startNr) ?? 0,
        reason: c.reason,
      });
    } else if (c.kind === 'correction' && c.placings) {
      standing = standingOf(c.placings);
    }
    revision += 1;
    change = c;
  }
  return { revision, standing, disqualifiedAfter, demotions, ...(change && { change }) };
}

/** Prize money per start number: places 1-8 paid; a shared place splits the places it covers. */
export function prizesOf(standing: Standing, firstPrizeSek: number): Map<number, number> {
  const prizes = new Map<number, number>();
  let ahead = 0;
  for (const group of standing) {
    let sum = 0;
    for (let p = ahead; p < ahead + group.length; p++) sum += (PRIZE_SHARES[p] ?? 0) * firstPrizeSek;
    if (sum > 0) for (const startNr of group) prizes.set(startNr, Math.round(sum / group.length));
    ahead += group.length;
  }
  return prizes;
}

/** The person up in the race: the new driver once a change was made before the start. */
export const riderOf = (s: Starter): string => s.driverChange?.to ?? s.driver;
