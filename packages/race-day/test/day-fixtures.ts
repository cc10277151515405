import fc from 'fast-check';
import {
  dateOfIndex,
  dayIndex,
  dayTimeline,
  generateDay,
  parseEdgeCasesOption,
  type DayMessage,
  type RaceDayPlan,
} from '@racedata/race-day';

export interface Day {
  readonly plan: RaceDayPlan;
  readonly timeline: readonly DayMessage[];
}

const cache = new Map<string, Day>();

/** A generated day and its timeline, made once per options in a test file. */
export function dayOf(date: string, seed: number, edgeCases = 'default'): Day {
  const key = `${date}/${seed}/${edgeCases}`;
  let day = cache.get(key);
  if (!day) {
    const plan = generateDay({ date, seed, meetings: 'auto', edgeCases: parseEdgeCasesOption(edgeCases) });
    day = { plan, timeline: dayTimeline(plan) };
    cache.set(key, day);
  }
  return day;
}

const FIRST = dayIndex('2020-01-01');
const LAST = dayIndex('2031-12-31');

/** Dates over a dozen years (every weekday, both seasons, the DST change days among them). */
export const dateArb = fc.integer({ min: FIRST, max: LAST }).map(dateOfIndex);
export const seedArb = fc.integer({ min: 0, max: 4_294_967_295 });
export const edgeArb = fc.constantFrom('default', 'all', 'none', 'all', 'default');

/** A day as fast-check draws it: any date, any seed, edge cases default, all or none. */
export const dayArb = fc.tuple(dateArb, seedArb, edgeArb).map(([date, seed, edge]) => ({ date, seed, edge }));

/** Property runs per invariant: every one generates whole days, so they are kept few. */
export const RUNS = { numRuns: 12 };

export const raceKey = (m: Pick<DayMessage, 'trackId' | 'raceNr' | 'date'>) =>
  `${m.date}/${m.trackId}/${m.raceNr}`;

type Positions = ReadonlyArray<{ startNr: number; horse?: string }>;

/** The start numbers a live or result message names, with the field that names them. */
export function startNrsOf(m: DayMessage): number[] {
  const p = m.payload as { positions?: Positions; placings?: Positions };
  if (m.channel === 'SplitTimes' || m.channel === 'Last500Meters')
    return (p.positions ?? []).map((x) => x.startNr);
  if (m.channel === 'Result') return (p.placings ?? []).map((x) => x.startNr);
  if (m.channel === 'PrelDisqualifiedHorses') return [m.startNr!];
  return [];
}
