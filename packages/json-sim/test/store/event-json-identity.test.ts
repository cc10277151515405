import fc from 'fast-check';
import type { Clock, EventInput } from '@racedata/core';
import { joinEventJson } from '../../src/http/event-json';
import { EventStore } from '../../src/store/event-store';
import type { StoredEvent } from '../../src/store/types';

// The store keeps each event's payload JSON and writes the envelope around it at read time:
// whatever the event, a page must carry exactly JSON.stringify of the event as append() gave it.

/** A clock that reads `times` in turn (then keeps the last), for created_at of any shape. */
function clockOf(times: readonly number[]): Clock {
  let i = 0;
  return {
    now: () => times[Math.min(i++, times.length - 1)] as number,
    setTimeout: () => ({ cancel: () => undefined }) as never,
    setInterval: () => ({ cancel: () => undefined }) as never,
  };
}

const page = (store: EventStore, events: readonly StoredEvent[]) =>
  joinEventJson(
    store,
    events.map((e) => e.eventId),
    '[',
    ']',
  ).toString('utf8');

const expected = (events: readonly StoredEvent[]) => `[${events.map((e) => JSON.stringify(e)).join(',')}]`;

const id = fc.oneof(
  fc.constant(undefined),
  fc.integer({ min: 0, max: 2000 }),
  fc.constantFrom(0, 9, 10, 99, 100, 2 ** 31 - 1, 2 ** 31, 2 ** 32 + 5, Number.MAX_SAFE_INTEGER),
);
const text = fc.oneof(fc.string(), fc.constantFrom('Åby 🐎', '"\\\n\u2028', '\ud800', 'x'.repeat(3000)));
const eventArb = fc.record({
  channel: fc.constantFrom('A', 'ResultTrot', 'Åby"kanal', '\u2028'),
  date: fc.constantFrom('2026-01-01', '0001-12-31', '9999-12-31', '2024-02-29'),
  trackId: id,
  raceNr: id,
  startNr: id,
  payload: fc.record({ s: text, n: fc.double(), list: fc.array(fc.integer(), { maxLength: 3 }) }),
});
// Whole and fractional milliseconds, years before 1970 and after 9999, repeats (a seed's batch).
const timeArb = fc.oneof(
  fc.integer({ min: Date.UTC(2026, 0, 1), max: Date.UTC(2026, 0, 3) }),
  fc.double({ min: -8.64e15, max: 8.64e15, noNaN: true }),
  fc.constantFrom(0, 253_402_300_799_999, 253_402_300_800_000, -1, 1.5),
);

function withoutUndefined(input: Record<string, unknown>): EventInput {
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as never;
}

describe('EventStore: every page is byte for byte JSON.stringify of its events', () => {
  test('any events, clock readings, pages and evictions (property)', () => {
    fc.assert(
      fc.property(
        fc.array(eventArb, { minLength: 1, maxLength: 60 }),
        fc.array(timeArb, { minLength: 1, maxLength: 60 }),
        fc.integer({ min: 5, max: 80 }),
        (inputs, times, maxEvents) => {
          const store = new EventStore({ maxEvents, clock: clockOf(times) });
          const held: StoredEvent[] = [];
          for (const input of inputs) {
            held.push(store.append(withoutUndefined(input)));
            if (held.length > maxEvents) held.shift();
          }
          expect(page(store, held)).toBe(expected(held));
          // Every other event: runs of one, and events read on their own.
          const sparse = held.filter((_, i) => i % 2 === 0);
          expect(page(store, sparse)).toBe(expected(sparse));
          for (const e of held.slice(-3)) {
            expect(store.jsonByteLength(e.eventId)).toBe(Buffer.byteLength(JSON.stringify(e)));
            expect(store.event(e.eventId)).toEqual(JSON.parse(JSON.stringify(e)));
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  test('absent, null and odd ids are written as they came', () => {
    const store = new EventStore({ maxEvents: 100, clock: clockOf([Date.UTC(2026, 0, 1)]) });
    const inputs = [
      { channel: 'A', date: '2026-01-01', payload: {} },
      { channel: 'A', date: '2026-01-01', startNr: 3, payload: { a: 1 } },
      { channel: 'A', date: '2026-01-01', trackId: 0, raceNr: 0, startNr: 0, payload: {} },
      { channel: 'A', date: '2026-01-01', trackId: null, raceNr: -0, payload: {} },
      { channel: 'A', date: '2026-01-01', trackId: -3, raceNr: 2.5, startNr: Number.NaN, payload: {} },
    ];
    const events = inputs.map((input) => store.append(input as never));
    expect(page(store, events)).toBe(expected(events));
    expect(JSON.parse(page(store, events))[1]).not.toHaveProperty('trackId');
  });

  test('ids crossing a power of ten and payloads crossing slabs along one page', () => {
    let now = Date.UTC(2026, 0, 1, 23, 59, 59, 990);
    const store = new EventStore({ maxEvents: 10_000, clock: { ...clockOf([0]), now: () => (now += 3) } });
    const events: StoredEvent[] = [];
    for (let i = 0; i < 1200; i++) {
      const big = i % 50 === 0 ? 'ü'.repeat(60_000) : 'x';
      events.push(
        store.append({
          channel: i % 3 === 0 ? 'A' : 'B',
          date: '2026-01-01',
          trackId: i % 7,
          payload: { big },
        }),
      );
    }
    expect(page(store, events)).toBe(expected(events));
    expect(page(store, events.slice(95, 1005))).toBe(expected(events.slice(95, 1005)));
  });
});
