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
