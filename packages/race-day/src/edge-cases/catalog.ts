import type { Sport } from '../model/types';

/** A part of a race only one edge case may decide: its start, its finish, what follows the result... */
export type Slot = 'start' | 'finish' | 'after' | 'whole' | 'surface' | 'terms';

export interface EdgeCaseDef {
  readonly id: string;
  /** A meeting-level case calls off (part of) a meeting; a race-level one sits in a race. */
  readonly level: 'race' | 'meeting';
  readonly sport?: Sport;
  readonly slot?: Slot;
  /** Applied in stage order, so later cases see what earlier ones did (a dead heat among finishers). */
  readonly stage: number;
  /** Default placement: the chance per race (race level) or per meeting (meeting level). */
  readonly rate: number;
  /** One line for the docs, the plan and errors. */
  readonly summary: string;
}

const def = (d: EdgeCaseDef) => d;

// Rates: race-day-facts.md, edge cases, scaled so a default day has a realistic few.
export const EDGE_CASES: readonly EdgeCaseDef[] = [
  def({
    id: 'late-scratching',
    level: 'race',
    stage: 1,
    rate: 0.04,
    summary: 'a start scratched after the parade',
  }),
  def({
    id: 'mass-scratching',
    level: 'race',
    stage: 1,
    rate: 0.005,
    summary: 'several horses of one stable scratched at once',
  }),
  def({
    id: 'driver-change',
    level: 'race',
    stage: 1,
    rate: 0.08,
    summary: 'a new driver or jockey; the start list keeps the original',
  }),
  def({
    id: 'monte',
    level: 'race',
    sport: 'trot',
    slot: 'terms',
    stage: 1,
    rate: 0.02,
    summary: 'a ridden trot race, visible only in its terms',
  }),
  def({
    id: 'foreign-horse',
    level: 'race',
    stage: 1,
    rate: 0.06,
    summary: 'a foreign-bred horse: a country code in its name',
  }),
  def({
    id: 'surface-change',
    level: 'race',
    sport: 'gallop',
    slot: 'surface',
    stage: 1,
    rate: 0.05,
    summary: 'a gallop race moved from turf to dirt',
  }),
  def({
    id: 'delayed-start',
    level: 'race',
    slot: 'start',
    stage: 2,
    rate: 0.05,
    summary: 'a later start announced during the countdown',
  }),
  def({
    id: 'false-start',
    level: 'race',
    slot: 'start',
    stage: 2,
    rate: 0.015,
    summary: 'a recall: the countdown runs again',
  }),
  def({
    id: 'gallop-disqualification',
    level: 'race',
    sport: 'trot',
    stage: 3,
    rate: 0.25,
    summary: 'a trotter disqualified live for galloping, then in the result',
  }),
  def({ id: 'non-finisher', level: 'race', stage: 3, rate: 0.03, summary: 'a runner that does not finish' }),
  def({
    id: 'photo-finish',
    level: 'race',
    slot: 'finish',
    stage: 4,
    rate: 0.04,
    summary: 'a close finish: the result comes minutes late',
  }),
  def({
    id: 'dead-heat',
    level: 'race',
    slot: 'finish',
    stage: 4,
    rate: 0.004,
    summary: 'two horses share a place and split its prize',
  }),
  def({
    id: 'result-correction',
    level: 'race',
    slot: 'after',
    stage: 5,
    rate: 0.01,
    summary: 'a published result replaced by a corrected one',
  }),
  def({
    id: 'demotion',
    level: 'race',
    slot: 'after',
    stage: 5,
    rate: 0.01,
    summary: 'a placed horse moved down',
  }),
  def({
    id: 'disqualification-after-result',
    level: 'race',
    slot: 'after',
    stage: 5,
    rate: 0.005,
    summary: 'a placed horse disqualified after the result',
  }),
  def({
    id: 'cancelled-race',
    level: 'race',
    slot: 'whole',
    stage: 6,
    rate: 0.004,
    summary: 'a race called off after its programme went out',
  }),
  def({
    id: 'cancelled-meeting',
    level: 'meeting',
    stage: 6,
    rate: 0.004,
    summary: 'a meeting called off after its programme went out',
  }),
  def({
    id: 'abandoned-meeting',
    level: 'meeting',
    stage: 6,
    rate: 0.003,
    summary: 'a meeting stopped after race N',
  }),
  def({
    id: 'postponed-meeting',
    level: 'meeting',
    stage: 6,
    rate: 0.003,
    summary: 'a meeting moved to another date with new times',
  }),
];

export const EDGE_CASE_IDS: readonly string[] = EDGE_CASES.map((c) => c.id);

export function edgeCaseDef(id: string): EdgeCaseDef | undefined {
  return EDGE_CASES.find((c) => c.id === id);
}
