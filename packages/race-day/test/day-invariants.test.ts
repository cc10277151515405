import fc from 'fast-check';
import { dayArb, dayOf, RUNS } from './day-fixtures';
import { INVARIANTS } from './timeline-invariants';

describe('a generated race day (property tests over dates and seeds)', () => {
  it.each(INVARIANTS)('%s', (_name, invariant) => {
    fc.assert(
      fc.property(dayArb, ({ date, seed, edge }) => {
        const { timeline, plan } = dayOf(date, seed, edge);
        invariant(timeline, plan);
      }),
      RUNS,
    );
  });
});

// A day fast-check once drew whose gallop race could not take surface-change under `all`.
it.each(INVARIANTS)('holds on 2020-01-01, seed 1340473, every edge case: %s', (_name, invariant) => {
  const { timeline, plan } = dayOf('2020-01-01', 1340473, 'all');
  invariant(timeline, plan);
});

// Days fast-check once drew where abandoned-meeting was placed after a race whose result (a
// delayed start, a photo finish) came after the next race's start, and the day was refused.
it.each([
  ['2020-01-01', 3552105048],
  ['2020-01-01', 2936758323],
])('holds on %s, seed %d, every edge case', (date, seed) => {
  const { timeline, plan } = dayOf(date, seed, 'all');
  expect(plan.meetings.some((m) => m.abandoned)).toBe(true);
  for (const [, invariant] of INVARIANTS) invariant(timeline, plan);
});
