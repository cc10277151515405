import fc from 'fast-check';
import { JournalRing } from '../src/journal-ring';

/** Every held entry, oldest first, as readers get them. */
const held = (ring: JournalRing) => Array.from({ length: ring.size }, (_, i) => ring.record(i));

type Step =
  | { readonly op: 'one'; readonly user: string }
  | { readonly op: 'each'; readonly users: readonly string[]; readonly channel: string; readonly at: number }
  | { readonly op: 'clear' };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ op: fc.constant('one' as const), user: fc.constantFrom('a', 'b', 'c') }),
  fc.record({
    op: fc.constant('each' as const),
    users: fc.array(fc.constantFrom('a', 'b', 'c', 'd'), { maxLength: 40 }),
    channel: fc.constantFrom('Result', 'Start'),
    at: fc.integer({ min: 0, max: 1e6 }),
  }),
  fc.constant({ op: 'clear' as const }),
);

describe('JournalRing', () => {
  test('property: a run recorded with pushEach holds what the same entries pushed one by one hold', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 70 }), fc.array(step, { maxLength: 30 }), (max, steps) => {
        const runs = new JournalRing(max);
        const model = new JournalRing(max);
        let seq = 0;
        for (const s of steps) {
          if (s.op === 'clear') {
            runs.clear();
            model.clear();
          } else if (s.op === 'one') {
            seq++;
            runs.push('closed', seq, 5, s.user, 'stomp', undefined, undefined, undefined, 1000);
            model.push('closed', seq, 5, s.user, 'stomp', undefined, undefined, undefined, 1000);
          } else {
            runs.pushEach(seq + 1, s.users, {
              ...{ kind: 'delivered', at: s.at, via: 'stomp', channel: s.channel },
              ...{ eventId: undefined, payloadKey: 'k', num: 101 },
            });
            for (const user of s.users)
              model.push('delivered', ++seq, s.at, user, 'stomp', s.channel, undefined, 'k', 101);
          }
          expect(runs.size).toBe(model.size);
          expect(runs.firstSeq).toBe(model.firstSeq);
        }
        expect(held(runs)).toEqual(held(model));
        // Filtering reads the same columns.
        for (let i = 0; i < runs.size; i++)
          expect(runs.matches(i, { user: 'a', channel: 'Result' })).toBe(
            model.matches(i, { user: 'a', channel: 'Result' }),
          );
      }),
      { numRuns: 500 },
    );
  });

  test('a run longer than the ring keeps its last entries, numbered as if each had been pushed', () => {
    const ring = new JournalRing(3);
    ring.push('received', 1, 0, undefined, 'inject', 'Result', undefined, undefined, 0);
    ring.pushEach(2, ['a', 'b', 'c', 'd', 'e'], {
      ...{ kind: 'delivered', at: 7, via: 'stomp', channel: 'Result' },
      ...{ eventId: undefined, payloadKey: undefined, num: 101 },
    });
    expect(held(ring).map((r) => [r.seq, 'user' in r ? r.user : undefined])).toEqual([
      [4, 'c'],
      [5, 'd'],
      [6, 'e'],
    ]);
  });
});
