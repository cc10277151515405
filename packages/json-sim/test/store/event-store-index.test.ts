import fc from 'fast-check';
import { ManualClock } from '@racedata/core';
import { joinEventJson } from '../../src/http/event-json';
import { EventStore } from '../../src/store/event-store';
import type { EventFilter, StoredEvent } from '../../src/store/types';
import { naive } from './event-store-support';

// The store's indexes (channel, day, every combination of exact ids) and its typed-array
// columns, checked against a plain scan of the events that should be held.

const CHANNELS = ['A', 'B', 'C', 'D'];
const DATES = ['2026-03-01', '2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05', '2026-03-06'];

// Now and then an id past 32 bits: the columns widen for it and must still answer exactly.
const idValue = fc.oneof(
  { weight: 12, arbitrary: fc.integer({ min: 0, max: 3 }) },
  { weight: 1, arbitrary: fc.constantFrom(2 ** 31, 2 ** 40 + 1) },
);
const optionalId = fc.option(idValue, { nil: undefined });
const eventArb = fc.record({
  channel: fc.constantFrom(...CHANNELS),
  date: fc.constantFrom(...DATES),
  trackId: optionalId,
  raceNr: optionalId,
  startNr: optionalId,
});

const filterArb = fc.record({
  channels: fc.subarray([...CHANNELS, 'Unknown']),
  afterFrac: fc.double({ min: 0, max: 1.2, noNaN: true }),
  limit: fc.integer({ min: 1, max: 40 }),
  startDate: fc.option(fc.constantFrom(...DATES, '2026-02-28', '2026-03-09'), { nil: undefined }),
  endDate: fc.option(fc.constantFrom(...DATES, '2026-02-28', '2026-03-09'), { nil: undefined }),
  trackId: fc.option(fc.oneof(idValue, fc.constant(4)), { nil: undefined }),
  raceNr: fc.option(fc.oneof(idValue, fc.constant(4)), { nil: undefined }),
  startNr: fc.option(fc.integer({ min: 0, max: 4 }), { nil: undefined }),
});

type EventArb = typeof eventArb extends fc.Arbitrary<infer T> ? T : never;
type FilterArb = typeof filterArb extends fc.Arbitrary<infer T> ? T : never;

type Step =
  | { kind: 'append'; event: EventArb }
  | { kind: 'clear'; continueIds: boolean }
  | { kind: 'query'; filter: FilterArb };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 12, arbitrary: eventArb.map((event) => ({ kind: 'append' as const, event })) },
  { weight: 1, arbitrary: fc.boolean().map((continueIds) => ({ kind: 'clear' as const, continueIds })) },
  { weight: 4, arbitrary: filterArb.map((filter) => ({ kind: 'query' as const, filter })) },
);

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

describe('EventStore indexes (property: any events, evictions, clears and filters)', () => {
  test('every query answers as a plain scan of the held events, with the same JSON bytes', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 60 }),
        fc.array(stepArb, { maxLength: 250 }),
        (maxEvents, steps) => {
          const clock = new ManualClock(Date.UTC(2026, 2, 1));
          const store = new EventStore({ maxEvents, clock });
          let held: StoredEvent[] = [];
          let nextId = 1;
          for (const step of steps) {
            if (step.kind === 'append') {
              const event = store.append({ ...withoutUndefined(step.event), payload: { n: nextId } });
              expect(event.eventId).toBe(nextId++);
              held.push(event);
              if (held.length > maxEvents) held.shift();
              clock.advance(1);
            } else if (step.kind === 'clear') {
              expect(store.clear(step.continueIds)).toBe(held.length);
              held = [];
              if (!step.continueIds) nextId = 1;
            } else {
              const { afterFrac, ...rest } = step.filter;
              const f: EventFilter = { ...rest, afterId: Math.floor(afterFrac * nextId) };
              const page = store.query(f);
              const expected = naive(held, { ...f, channels: f.channels });
              expect({ ids: page.ids, hasMore: page.hasMore }).toEqual(expected);
              const events = held.filter((e) => page.ids.includes(e.eventId));
              expect(joinEventJson(store, page.ids, '[', ']').toString('utf8')).toBe(JSON.stringify(events));
            }
            expect(store.size).toBe(held.length);
            expect(store.lastEventId).toBe(nextId - 1);
          }
          for (const name of CHANNELS) {
            const newest = held.filter((e) => e.channel === name).at(-1);
            expect(store.latestId([name])).toBe(newest?.eventId);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  test('eviction by the byte budget keeps the indexes in step too', () => {
    fc.assert(
      fc.property(
        fc.array(eventArb, { minLength: 1, maxLength: 200 }),
        fc.integer({ min: 1, max: 4 }),
        (inputs, fit) => {
          const clock = new ManualClock(Date.UTC(2026, 2, 1));
          // Events of about 340 to 370 bytes of cost each: `fit` of them fit the budget.
          const store = new EventStore({ maxEvents: 1000, maxBytes: 400 * fit, clock });
          const held: StoredEvent[] = [];
          for (const input of inputs) {
            held.push(store.append({ ...withoutUndefined(input), payload: { pad: 'x'.repeat(20) } }));
            while (held.reduce((sum, e) => sum + Buffer.byteLength(JSON.stringify(e)) + 200, 0) > 400 * fit)
              held.shift();
          }
          expect(store.size).toBe(held.length);
          const f: EventFilter = { channels: CHANNELS, afterId: 0, limit: 1000 };
          expect(store.query(f).ids).toEqual(naive(held, f).ids);
          for (const id of [1, 2, 3]) {
            const f1 = { ...f, trackId: id };
            expect(store.query(f1).ids).toEqual(naive(held, f1).ids);
          }
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe('EventStore: a filter no event matches', () => {
  test('finds nothing without walking the events of the channel and dates', () => {
    const clock = new ManualClock();
    const store = new EventStore({ maxEvents: 1_000_000, clock });
    for (let i = 0; i < 50_000; i++) {
      store.append({
        channel: 'A',
        date: '2026-03-01',
        trackId: i % 20,
        raceNr: i % 10,
        startNr: i % 12,
        payload: {},
      });
    }
    // trackId 0 and raceNr 1 never meet (i % 20 === 0 makes i % 10 === 0).
    const page = store.query({
      channels: ['A'],
      afterId: 0,
      limit: 100,
      startDate: '2026-01-01',
      endDate: '2026-12-31',
      trackId: 0,
      raceNr: 1,
    });
    expect(page).toEqual({ ids: [], hasMore: false });
    expect(
      store.query({ channels: ['A'], afterId: 0, limit: 100, trackId: 0, raceNr: 0, startNr: 0 }).ids,
    ).toHaveLength(100);
  });
});

describe('EventStore: ids of any size', () => {
  test('a filter on an id past 32 bits finds exactly its events, before and after the columns widen', () => {
    const store = new EventStore({ maxEvents: 100, clock: new ManualClock(Date.UTC(2026, 2, 1)) });
    const ids = [1, 2 ** 31 - 1, 2 ** 31, 2 ** 40 + 1, Number.MAX_SAFE_INTEGER, 1, 2 ** 31];
    for (const trackId of ids) {
      store.append({ channel: 'A', date: '2026-03-01', trackId, startNr: trackId, payload: {} });
    }
    const find = (trackId: number) =>
      store.query({ channels: ['A'], afterId: 0, limit: 100, trackId, startNr: trackId }).ids;
    expect(find(1)).toEqual([1, 6]);
    expect(find(2 ** 31 - 1)).toEqual([2]);
    expect(find(2 ** 31)).toEqual([3, 7]);
    expect(find(2 ** 40 + 1)).toEqual([4]);
    expect(find(Number.MAX_SAFE_INTEGER)).toEqual([5]);
    expect(find(-(2 ** 31))).toEqual([]);
    expect(find(0)).toEqual([]);
  });
});
