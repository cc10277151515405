import type { Race, Starter } from '../model/types';
import { runnersOf } from './race-times';
import { round } from './format';

/** The metres a runner has covered when the front of the field is `d` metres from its start line. */
const own = (s: Starter, d: number) => d + (s.handicapMeters ?? 0);

/** Seconds after the start when a runner is `d` metres into the race: even pace bent by its shape. */
export function timeAt(s: Starter, race: Race, d: number): number {
  const total = race.distance + (s.handicapMeters ?? 0);
  const share = own(s, d) / total;
  return s.finishSeconds * share + s.shape * Math.sin(Math.PI * share);
}

/** Still in the race `d` metres in: started, not disqualified or stopped before `d`. */
export function inFieldAt(s: Starter, d: number): boolean {
  if (s.scratched) return false;
  if (s.disqualified && s.disqualified.atMeters <= d) return false;
  if (s.nonFinisher && s.nonFinisher.atMeters <= d) return false;
  return true;
}

export interface FieldPosition {
  readonly position: number;
  readonly starter: Starter;
  readonly behindSeconds: number;
}

/** The field `d` metres in, leader first, and when the leader got there. */
export function fieldAt(race: Race, d: number): { leaderSeconds: number; positions: FieldPosition[] } {
  const ranked = runnersOf(race)
    .filter((s) => inFieldAt(s, d))
    .map((s) => ({ s, t: timeAt(s, race, d) }))
    .sort((a, b) => a.t - b.t || a.s.startNr - b.s.startNr);
  const leaderSeconds = ranked[0]?.t ?? 0;
  return {
    leaderSeconds,
    positions: ranked.map(({ s, t }, i) => ({
      position: i + 1,
      starter: s,
      behindSeconds: round(t - leaderSeconds, 2),
    })),
  };
}
