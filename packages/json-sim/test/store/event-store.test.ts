import { ManualClock, type Clock } from '@racedata/core';
import { seededRandom } from '@racedata/test-support/seeded-random';
import { EventStore } from '../../src/store/event-store';
import type { StoredEvent } from '../../src/store/types';
import { ISO_MS, datesOf, filter, ids, input, naive, read } from './event-store-support';

describe('EventStore', () => {
  let clock: ManualClock;
  let store: EventStore;

  beforeEach(() => {
    clock = new ManualClock(Date.UTC(2026, 2, 14, 12, 0, 0, 5));
    store = new EventStore({ maxEvents: 1_000_000, clock });
  });

  describe('append', () => {
    test('an empty store has size 0, lastEventId 0 and answers every query with nothing', () => {
      expect(store.size).toBe(0);
      expect(store.lastEventId).toBe(0);
      expect(store.latest(['A'])).toBeUndefined();
      expect(read(store, filter(['A']))).toEqual({ events: [], hasMore: false });
    });

    test('assigns ascending eventIds from 1 and counts them', () => {
      const events = [store.append(input('A')), store.append(input('B')), store.append(input('A'))];
      expect(ids(events)).toEqual([1, 2, 3]);
      expect(store.size).toBe(3);
      expect(store.lastEventId).toBe(3);
    });

    test('keeps the given fields and adds created_at as an ISO timestamp with milliseconds from the clock', () => {
      const payload = { raceDay: { id: 7 } };
      const event = store.append({
        channel: 'A',
        date: '2026-03-14',
        trackId: 5,
        raceNr: 3,
        startNr: 9,
        payload,
      });
      expect(event).toEqual({
        channel: 'A',
        date: '2026-03-14',
        trackId: 5,
        raceNr: 3,
        startNr: 9,
        payload,
        eventId: 1,
        created_at: '2026-03-14T12:00:00.005Z',
      });
      expect(event.created_at).toMatch(ISO_MS);
    });

    test('omits optional ids that were not given (no undefined keys) but keeps 0', () => {
      const bare = store.append(input('A'));
      expect(Object.keys(bare).sort()).toEqual(['channel', 'created_at', 'date', 'eventId', 'payload']);
      const zero = store.append(input('A', '2026-01-01', { trackId: 0, raceNr: 0, startNr: 0 }));
      expect(zero).toMatchObject({ trackId: 0, raceNr: 0, startNr: 0 });
    });

    test('stored events are frozen', () => {
      const event = store.append(input('A'));
      expect(Object.isFrozen(event)).toBe(true);
      expect(() => {
        (event as { eventId: number }).eventId = 99;
      }).toThrow(TypeError);
    });

    test('created_at follows the clock and has millisecond precision', () => {
      const first = store.append(input('A'));
      clock.advance(1);
      const second = store.append(input('A'));
      clock.advance(999);
      const third = store.append(input('A'));
      expect(Date.parse(second.created_at) - Date.parse(first.created_at)).toBe(1);
      expect(Date.parse(third.created_at) - Date.parse(second.created_at)).toBe(999);
    });

    test('created_at never decreases even when the wall clock steps back', () => {
      let now = Date.UTC(2026, 0, 1, 10);
      const jumpy: Clock = {
        now: () => now,
        setTimeout: clock.setTimeout.bind(clock),
        setInterval: clock.setInterval.bind(clock),
      };
      const s = new EventStore({ maxEvents: 100, clock: jumpy });
      const a = s.append(input('A'));
      now -= 60_000;
      const b = s.append(input('A'));
      now += 30_000;
      const c = s.append(input('A'));
      now += 60_000;
      const d = s.append(input('A'));
      const times = [a, b, c, d].map((e) => Date.parse(e.created_at));
      expect(times).toEqual([...times].sort((x, y) => x - y));
      expect(b.created_at).toBe(a.created_at);
      expect(c.created_at).toBe(a.created_at);
      expect(d.created_at).toBe(new Date(Date.UTC(2026, 0, 1, 10, 0, 30)).toISOString());
    });
  });

  describe('latest', () => {
    test('picks the highest eventId among the given channels only', () => {
      store.append(input('A'));
      const b = store.append(input('B'));
      store.append(input('C'));
      const a2 = store.append(input('A'));
      store.append(input('C'));
      expect(store.latest(['A', 'B'])).toEqual(a2);
      expect(store.latest(['B'])).toEqual(b);
      expect(store.latest(['B', 'Unknown'])).toEqual(b);
      expect(store.latest(['C'])?.eventId).toBe(5);
    });

    test('is undefined for no channels or channels without events', () => {
      store.append(input('A'));
      expect(store.latest([])).toBeUndefined();
      expect(store.latest(['B', 'C'])).toBeUndefined();
    });

    test('ignores channel order', () => {
      store.append(input('A'));
      store.append(input('B'));
      expect(store.latest(['A', 'B'])?.eventId).toBe(2);
      expect(store.latest(['B', 'A'])?.eventId).toBe(2);
    });
  });

  describe('query', () => {
    beforeEach(() => {
      // 1 A 01-01 | 2 B 01-01 | 3 A 01-02 | 4 C 01-02 | 5 A 01-03 | 6 B 01-03 | 7 A 01-01 | 8 A 01-05
      store.append(input('A', '2026-01-01', { trackId: 1, raceNr: 1, startNr: 1 }));
      store.append(input('B', '2026-01-01', { trackId: 1, raceNr: 1 }));
      store.append(input('A', '2026-01-02', { trackId: 2, raceNr: 1, startNr: 2 }));
      store.append(input('C', '2026-01-02', { trackId: 1 }));
      store.append(input('A', '2026-01-03', { trackId: 1, raceNr: 2, startNr: 1 }));
      store.append(input('B', '2026-01-03', { trackId: 2, raceNr: 2 }));
      store.append(input('A', '2026-01-01', { trackId: 1, raceNr: 2, startNr: 2 }));
      store.append(input('A', '2026-01-05'));
    });

    test('returns the events of the given channels only, in eventId order', () => {
      expect(ids(read(store, filter(['A'])).events)).toEqual([1, 3, 5, 7, 8]);
      expect(ids(read(store, filter(['B', 'A'])).events)).toEqual([1, 2, 3, 5, 6, 7, 8]);
      expect(ids(read(store, filter(['C', 'Unknown'])).events)).toEqual([4]);
      expect(read(store, filter([]))).toEqual({ events: [], hasMore: false });
    });

    test('afterId is exclusive', () => {
      expect(ids(read(store, filter(['A', 'B', 'C'], { afterId: 3 })).events)).toEqual([4, 5, 6, 7, 8]);
      expect(ids(read(store, filter(['A'], { afterId: 4 })).events)).toEqual([5, 7, 8]);
      expect(ids(read(store, filter(['A'], { afterId: 8 })).events)).toEqual([]);
      expect(ids(read(store, filter(['A'], { afterId: 1000 })).events)).toEqual([]);
    });

    test('limit cuts the page and hasMore is true exactly when more matches exist', () => {
      const all = ['A', 'B', 'C'];
      expect(read(store, filter(all, { limit: 3 }))).toMatchObject({ hasMore: true });
      expect(ids(read(store, filter(all, { limit: 3 })).events)).toEqual([1, 2, 3]);
      expect(read(store, filter(all, { limit: 7 })).hasMore).toBe(true);
      expect(read(store, filter(all, { limit: 8 })).hasMore).toBe(false);
      expect(read(store, filter(all, { limit: 9 })).hasMore).toBe(false);
      expect(read(store, filter(['A'], { afterId: 4, limit: 2 })).hasMore).toBe(true);
      expect(read(store, filter(['A'], { afterId: 4, limit: 3 })).hasMore).toBe(false);
      expect(read(store, filter(['A'], { afterId: 7, limit: 1 }))).toEqual({
        events: [expect.objectContaining({ eventId: 8 })],
        hasMore: false,
      });
    });

    test('hasMore counts only matching events, not events of other channels or failing filters', () => {
      // A with trackId 1: 1, 5, 7. B and C events after them must not make hasMore true.
      const page = read(store, filter(['A', 'B', 'C'], { trackId: 1, limit: 3 }));
      expect(ids(page.events)).toEqual([1, 2, 4]);
      expect(page.hasMore).toBe(true);
      const lastPage = read(store, filter(['A'], { trackId: 1, afterId: 1, limit: 2 }));
      expect(ids(lastPage.events)).toEqual([5, 7]);
      expect(lastPage.hasMore).toBe(false);
      expect(read(store, filter(['A'], { raceNr: 2, limit: 1 })).hasMore).toBe(true);
      expect(read(store, filter(['A'], { raceNr: 2, limit: 2 })).hasMore).toBe(false);
    });

    test('startDate and endDate are inclusive', () => {
      expect(
        ids(read(store, filter(['A'], { startDate: '2026-01-02', endDate: '2026-01-03' })).events),
      ).toEqual([3, 5]);
      expect(
        ids(read(store, filter(['A'], { startDate: '2026-01-01', endDate: '2026-01-01' })).events),
      ).toEqual([1, 7]);
      expect(
        ids(read(store, filter(['A', 'B', 'C'], { startDate: '2026-01-03', endDate: '2026-01-03' })).events),
      ).toEqual([5, 6]);
    });

    test('an open-ended range: only startDate, or only endDate', () => {
      expect(ids(read(store, filter(['A'], { startDate: '2026-01-03' })).events)).toEqual([5, 8]);
      expect(ids(read(store, filter(['A'], { endDate: '2026-01-02' })).events)).toEqual([1, 3, 7]);
      expect(ids(read(store, filter(['A', 'B'], { endDate: '2026-01-01' })).events)).toEqual([1, 2, 7]);
    });

    test('a range between stored dates, outside them, or reversed finds nothing', () => {
      expect(read(store, filter(['A'], { startDate: '2026-01-04', endDate: '2026-01-04' })).events).toEqual(
        [],
      );
      expect(read(store, filter(['A'], { startDate: '2025-12-01', endDate: '2025-12-31' })).events).toEqual(
        [],
      );
      expect(read(store, filter(['A'], { startDate: '2026-01-06' })).events).toEqual([]);
      expect(read(store, filter(['A'], { startDate: '2026-01-03', endDate: '2026-01-02' })).events).toEqual(
        [],
      );
    });

    test('a date range still merges buckets in eventId order (dates appended out of order)', () => {
      // A events on 01-01 are ids 1 and 7; on 01-02 id 3: the answer must be 1, 3, 7 not 1, 7, 3.
      expect(
        ids(read(store, filter(['A'], { startDate: '2026-01-01', endDate: '2026-01-02' })).events),
      ).toEqual([1, 3, 7]);
    });

    test('trackId, raceNr and startNr match exactly and combine', () => {
      expect(ids(read(store, filter(['A', 'B', 'C'], { trackId: 1 })).events)).toEqual([1, 2, 4, 5, 7]);
      expect(ids(read(store, filter(['A', 'B', 'C'], { trackId: 2 })).events)).toEqual([3, 6]);
      expect(ids(read(store, filter(['A', 'B'], { raceNr: 2 })).events)).toEqual([5, 6, 7]);
      expect(ids(read(store, filter(['A'], { startNr: 2 })).events)).toEqual([3, 7]);
      expect(ids(read(store, filter(['A'], { trackId: 1, raceNr: 2 })).events)).toEqual([5, 7]);
      expect(ids(read(store, filter(['A'], { trackId: 1, raceNr: 2, startNr: 1 })).events)).toEqual([5]);
      expect(ids(read(store, filter(['A'], { trackId: 3 })).events)).toEqual([]);
    });

    test('an event without a field never matches a filter on that field (not even 0)', () => {
      expect(ids(read(store, filter(['C'], { raceNr: 0 })).events)).toEqual([]);
      expect(ids(read(store, filter(['A'], { trackId: 0 })).events)).toEqual([]);
      store.append(input('C', '2026-01-02', { raceNr: 0 }));
      expect(ids(read(store, filter(['C'], { raceNr: 0 })).events)).toEqual([9]);
    });

    test('dates and exact ids combine with afterId and limit', () => {
      const page = read(
        store,
        filter(['A', 'B'], {
          startDate: '2026-01-01',
          endDate: '2026-01-03',
          trackId: 1,
          afterId: 1,
          limit: 2,
        }),
      );
      expect(ids(page.events)).toEqual([2, 5]);
      expect(page.hasMore).toBe(true);
    });

    test('returns the events as they were stored', () => {
      const event = store.append(input('D'));
      expect(read(store, filter(['D'])).events[0]).toEqual(event);
    });
  });

  describe('eviction at maxEvents', () => {
    test('drops the oldest events first and keeps size at the cap', () => {
      const s = new EventStore({ maxEvents: 3, clock });
      for (let i = 0; i < 5; i++) s.append(input(i % 2 === 0 ? 'A' : 'B'));
      expect(s.size).toBe(3);
      expect(s.lastEventId).toBe(5);
      expect(ids(read(s, filter(['A', 'B'])).events)).toEqual([3, 4, 5]);
      expect(ids(read(s, filter(['A'])).events)).toEqual([3, 5]);
      expect(ids(read(s, filter(['B'])).events)).toEqual([4]);
    });

    test('eventIds keep counting after eviction (never reused)', () => {
      const s = new EventStore({ maxEvents: 2, clock });
      for (let i = 0; i < 10; i++) s.append(input('A'));
      expect(s.append(input('A')).eventId).toBe(11);
      expect(ids(read(s, filter(['A'])).events)).toEqual([10, 11]);
    });

    test('a channel whose events were all evicted has no latest and no events', () => {
      const s = new EventStore({ maxEvents: 2, clock });
      s.append(input('A'));
      s.append(input('B'));
      s.append(input('B'));
      expect(s.latest(['A'])).toBeUndefined();
      expect(read(s, filter(['A']))).toEqual({ events: [], hasMore: false });
      expect(s.latest(['A', 'B'])?.eventId).toBe(3);
    });

    test('queries after eviction never return evicted events, with or without date filters', () => {
      const s = new EventStore({ maxEvents: 4, clock });
      s.append(input('A', '2026-01-01')); // 1
      s.append(input('A', '2026-01-02')); // 2
      s.append(input('A', '2026-01-01')); // 3
      s.append(input('A', '2026-01-02')); // 4
      s.append(input('A', '2026-01-03')); // 5 evicts 1
      s.append(input('A', '2026-01-03')); // 6 evicts 2
      expect(ids(read(s, filter(['A'])).events)).toEqual([3, 4, 5, 6]);
      expect(ids(read(s, filter(['A'], { startDate: '2026-01-01', endDate: '2026-01-02' })).events)).toEqual([
        3, 4,
      ]);
      expect(ids(read(s, filter(['A'], { endDate: '2026-01-01' })).events)).toEqual([3]);
      expect(ids(read(s, filter(['A'], { afterId: 0, limit: 1 })).events)).toEqual([3]);
    });

    test('a date bucket emptied by eviction disappears from the index', () => {
      const s = new EventStore({ maxEvents: 3, clock });
      s.append(input('A', '2026-01-01')); // 1
      s.append(input('A', '2026-01-02')); // 2
      s.append(input('A', '2026-01-03')); // 3
      expect(datesOf(s, 'A')).toEqual(['2026-01-01', '2026-01-02', '2026-01-03']);
      s.append(input('A', '2026-01-02')); // 4 evicts 1: bucket 01-01 is now empty
      expect(datesOf(s, 'A')).toEqual(['2026-01-02', '2026-01-03']);
      s.append(input('A', '2026-01-04')); // 5 evicts 2: 01-02 still holds 4
      expect(datesOf(s, 'A')).toEqual(['2026-01-02', '2026-01-03', '2026-01-04']);
      expect(read(s, filter(['A'], { startDate: '2026-01-01', endDate: '2026-01-01' })).events).toEqual([]);
      expect(ids(read(s, filter(['A'], { startDate: '2026-01-01', endDate: '2026-01-02' })).events)).toEqual([
        4,
      ]);
    });

    test('a date emptied by eviction can be filled again and is found by range queries', () => {
      const s = new EventStore({ maxEvents: 2, clock });
      s.append(input('A', '2026-01-01')); // 1
      s.append(input('A', '2026-01-02')); // 2
      s.append(input('A', '2026-01-03')); // 3 evicts 1
      s.append(input('A', '2026-01-01')); // 4 evicts 2, refills 01-01
      expect(datesOf(s, 'A')).toEqual(['2026-01-01', '2026-01-03']);
      expect(ids(read(s, filter(['A'], { startDate: '2026-01-01', endDate: '2026-01-02' })).events)).toEqual([
        4,
      ]);
      expect(ids(read(s, filter(['A'], { startDate: '2026-01-01' })).events)).toEqual([3, 4]);
    });

    test('a cap of 1 keeps only the newest event', () => {
      const s = new EventStore({ maxEvents: 1, clock });
      s.append(input('A', '2026-01-01'));
      const last = s.append(input('B', '2026-01-02'));
      expect(s.size).toBe(1);
      expect(read(s, filter(['A', 'B'])).events).toEqual([last]);
      expect(datesOf(s, 'A')).toEqual([]);
    });

    test('matches a plain scan for random queries while evicting (model check)', () => {
      const rand = seededRandom(2026);
      const channels = ['A', 'B', 'C', 'D'];
      const dates = ['2026-03-01', '2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05'];
      const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)] as T;
      const maybe = <T>(value: T) => (rand() < 0.5 ? value : undefined);
      const s = new EventStore({ maxEvents: 300, clock });
      const kept: StoredEvent[] = [];
      for (let i = 0; i < 2000; i++) {
        const event = s.append({
          channel: pick(channels),
          date: pick(dates),
          ...(rand() < 0.8 && { trackId: Math.floor(rand() * 3) }),
          ...(rand() < 0.8 && { raceNr: 1 + Math.floor(rand() * 3) }),
          ...(rand() < 0.5 && { startNr: 1 + Math.floor(rand() * 3) }),
          payload: { i },
        });
        kept.push(event);
        if (kept.length > 300) kept.shift();
        if (i % 10 === 0) {
          const wanted = channels.filter(() => rand() < 0.6);
          const [d1, d2] = [pick(dates), pick(dates)].sort();
          const f = filter(wanted, {
            afterId: rand() < 0.5 ? 0 : Math.max(0, event.eventId - Math.floor(rand() * 400)),
            limit: 1 + Math.floor(rand() * 60),
            startDate: maybe(d1),
            endDate: maybe(d2),
            trackId: maybe(Math.floor(rand() * 3)),
            raceNr: maybe(1 + Math.floor(rand() * 3)),
            startNr: maybe(1 + Math.floor(rand() * 3)),
          });
          const page = read(s, f);
          expect({ ids: ids(page.events), hasMore: page.hasMore }).toEqual(naive(kept, f));
        }
      }
      expect(s.size).toBe(300);
    });
  });
});
