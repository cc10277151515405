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
