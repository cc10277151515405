import {
  EventStore,
  ManualClock,
  type Clock,
  type EventFilter,
  type EventInput,
  type StoredEvent,
} from '@racedata/core';
import { AppendLog } from '../src/append-log';

function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function input(channel: string, date = '2026-01-01', extra: Partial<EventInput> = {}): EventInput {
  return { channel, date, payload: { n: Math.random() }, ...extra };
}

function filter(channels: string[], extra: Partial<EventFilter> = {}): EventFilter {
  return { channels, afterId: 0, limit: 1_000_000, ...extra };
}

const ids = (events: readonly StoredEvent[]) => events.map((e) => e.eventId);

/** The reference answer: a plain scan of everything that should still be stored. */
function naive(all: readonly StoredEvent[], f: EventFilter): { ids: number[]; hasMore: boolean } {
  const hits = all.filter(
    (e) =>
      f.channels.includes(e.channel) &&
      e.eventId > f.afterId &&
      (f.startDate === undefined || e.date >= f.startDate) &&
      (f.endDate === undefined || e.date <= f.endDate) &&
      (f.trackId === undefined || e.trackId === f.trackId) &&
      (f.raceNr === undefined || e.raceNr === f.raceNr) &&
      (f.startNr === undefined || e.startNr === f.startNr),
  );
  return { ids: hits.slice(0, f.limit).map((e) => e.eventId), hasMore: hits.length > f.limit };
}

/** Reads the private (channel, date) index; there is no public view of it. */
function datesOf(store: EventStore, channel: string): string[] | undefined {
  const internals = store as unknown as {
    channels: Map<string, { dates: string[]; byDate: Map<string, unknown> }>;
  };
  const index = internals.channels.get(channel);
  if (!index) return undefined;
  expect([...index.byDate.keys()].sort()).toEqual(index.dates);
  return [...index.dates];
}

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
      expect(store.query(filter(['A']))).toEqual({ events: [], hasMore: false });
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
      expect(store.latest(['A', 'B'])).toBe(a2);
      expect(store.latest(['B'])).toBe(b);
      expect(store.latest(['B', 'Unknown'])).toBe(b);
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
      expect(ids(store.query(filter(['A'])).events)).toEqual([1, 3, 5, 7, 8]);
      expect(ids(store.query(filter(['B', 'A'])).events)).toEqual([1, 2, 3, 5, 6, 7, 8]);
      expect(ids(store.query(filter(['C', 'Unknown'])).events)).toEqual([4]);
      expect(store.query(filter([]))).toEqual({ events: [], hasMore: false });
    });

    test('afterId is exclusive', () => {
      expect(ids(store.query(filter(['A', 'B', 'C'], { afterId: 3 })).events)).toEqual([4, 5, 6, 7, 8]);
      expect(ids(store.query(filter(['A'], { afterId: 4 })).events)).toEqual([5, 7, 8]);
      expect(ids(store.query(filter(['A'], { afterId: 8 })).events)).toEqual([]);
      expect(ids(store.query(filter(['A'], { afterId: 1000 })).events)).toEqual([]);
    });

    test('limit cuts the page and hasMore is true exactly when more matches exist', () => {
      const all = ['A', 'B', 'C'];
      expect(store.query(filter(all, { limit: 3 }))).toMatchObject({ hasMore: true });
      expect(ids(store.query(filter(all, { limit: 3 })).events)).toEqual([1, 2, 3]);
      expect(store.query(filter(all, { limit: 7 })).hasMore).toBe(true);
      expect(store.query(filter(all, { limit: 8 })).hasMore).toBe(false);
      expect(store.query(filter(all, { limit: 9 })).hasMore).toBe(false);
      expect(store.query(filter(['A'], { afterId: 4, limit: 2 })).hasMore).toBe(true);
      expect(store.query(filter(['A'], { afterId: 4, limit: 3 })).hasMore).toBe(false);
      expect(store.query(filter(['A'], { afterId: 7, limit: 1 }))).toEqual({
        events: [expect.objectContaining({ eventId: 8 })],
        hasMore: false,
      });
    });

    test('hasMore counts only matching events, not events of other channels or failing filters', () => {
      // A with trackId 1: 1, 5, 7. B and C events after them must not make hasMore true.
      const page = store.query(filter(['A', 'B', 'C'], { trackId: 1, limit: 3 }));
      expect(ids(page.events)).toEqual([1, 2, 4]);
      expect(page.hasMore).toBe(true);
      const lastPage = store.query(filter(['A'], { trackId: 1, afterId: 1, limit: 2 }));
      expect(ids(lastPage.events)).toEqual([5, 7]);
      expect(lastPage.hasMore).toBe(false);
      expect(store.query(filter(['A'], { raceNr: 2, limit: 1 })).hasMore).toBe(true);
      expect(store.query(filter(['A'], { raceNr: 2, limit: 2 })).hasMore).toBe(false);
    });

    test('startDate and endDate are inclusive', () => {
      expect(
        ids(store.query(filter(['A'], { startDate: '2026-01-02', endDate: '2026-01-03' })).events),
      ).toEqual([3, 5]);
      expect(
        ids(store.query(filter(['A'], { startDate: '2026-01-01', endDate: '2026-01-01' })).events),
      ).toEqual([1, 7]);
      expect(
        ids(store.query(filter(['A', 'B', 'C'], { startDate: '2026-01-03', endDate: '2026-01-03' })).events),
      ).toEqual([5, 6]);
    });

    test('an open-ended range: only startDate, or only endDate', () => {
      expect(ids(store.query(filter(['A'], { startDate: '2026-01-03' })).events)).toEqual([5, 8]);
      expect(ids(store.query(filter(['A'], { endDate: '2026-01-02' })).events)).toEqual([1, 3, 7]);
      expect(ids(store.query(filter(['A', 'B'], { endDate: '2026-01-01' })).events)).toEqual([1, 2, 7]);
    });

    test('a range between stored dates, outside them, or reversed finds nothing', () => {
      expect(store.query(filter(['A'], { startDate: '2026-01-04', endDate: '2026-01-04' })).events).toEqual(
        [],
      );
      expect(store.query(filter(['A'], { startDate: '2025-12-01', endDate: '2025-12-31' })).events).toEqual(
        [],
      );
      expect(store.query(filter(['A'], { startDate: '2026-01-06' })).events).toEqual([]);
      expect(store.query(filter(['A'], { startDate: '2026-01-03', endDate: '2026-01-02' })).events).toEqual(
        [],
      );
    });

    test('a date range still merges buckets in eventId order (dates appended out of order)', () => {
      // A events on 01-01 are ids 1 and 7; on 01-02 id 3: the answer must be 1, 3, 7 not 1, 7, 3.
      expect(
        ids(store.query(filter(['A'], { startDate: '2026-01-01', endDate: '2026-01-02' })).events),
      ).toEqual([1, 3, 7]);
    });

    test('trackId, raceNr and startNr match exactly and combine', () => {
      expect(ids(store.query(filter(['A', 'B', 'C'], { trackId: 1 })).events)).toEqual([1, 2, 4, 5, 7]);
      expect(ids(store.query(filter(['A', 'B', 'C'], { trackId: 2 })).events)).toEqual([3, 6]);
      expect(ids(store.query(filter(['A', 'B'], { raceNr: 2 })).events)).toEqual([5, 6, 7]);
      expect(ids(store.query(filter(['A'], { startNr: 2 })).events)).toEqual([3, 7]);
      expect(ids(store.query(filter(['A'], { trackId: 1, raceNr: 2 })).events)).toEqual([5, 7]);
      expect(ids(store.query(filter(['A'], { trackId: 1, raceNr: 2, startNr: 1 })).events)).toEqual([5]);
      expect(ids(store.query(filter(['A'], { trackId: 3 })).events)).toEqual([]);
    });

    test('an event without a field never matches a filter on that field (not even 0)', () => {
      expect(ids(store.query(filter(['C'], { raceNr: 0 })).events)).toEqual([]);
      expect(ids(store.query(filter(['A'], { trackId: 0 })).events)).toEqual([]);
      store.append(input('C', '2026-01-02', { raceNr: 0 }));
      expect(ids(store.query(filter(['C'], { raceNr: 0 })).events)).toEqual([9]);
    });

    test('dates and exact ids combine with afterId and limit', () => {
      const page = store.query(
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

    test('returns the stored objects themselves', () => {
      const event = store.append(input('D'));
      expect(store.query(filter(['D'])).events[0]).toBe(event);
    });
  });

  describe('eviction at maxEvents', () => {
    test('drops the oldest events first and keeps size at the cap', () => {
      const s = new EventStore({ maxEvents: 3, clock });
      for (let i = 0; i < 5; i++) s.append(input(i % 2 === 0 ? 'A' : 'B'));
      expect(s.size).toBe(3);
      expect(s.lastEventId).toBe(5);
      expect(ids(s.query(filter(['A', 'B'])).events)).toEqual([3, 4, 5]);
      expect(ids(s.query(filter(['A'])).events)).toEqual([3, 5]);
      expect(ids(s.query(filter(['B'])).events)).toEqual([4]);
    });

    test('eventIds keep counting after eviction (never reused)', () => {
      const s = new EventStore({ maxEvents: 2, clock });
      for (let i = 0; i < 10; i++) s.append(input('A'));
      expect(s.append(input('A')).eventId).toBe(11);
      expect(ids(s.query(filter(['A'])).events)).toEqual([10, 11]);
    });

    test('a channel whose events were all evicted has no latest and no events', () => {
      const s = new EventStore({ maxEvents: 2, clock });
      s.append(input('A'));
      s.append(input('B'));
      s.append(input('B'));
      expect(s.latest(['A'])).toBeUndefined();
      expect(s.query(filter(['A']))).toEqual({ events: [], hasMore: false });
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
      expect(ids(s.query(filter(['A'])).events)).toEqual([3, 4, 5, 6]);
      expect(ids(s.query(filter(['A'], { startDate: '2026-01-01', endDate: '2026-01-02' })).events)).toEqual([
        3, 4,
      ]);
      expect(ids(s.query(filter(['A'], { endDate: '2026-01-01' })).events)).toEqual([3]);
      expect(ids(s.query(filter(['A'], { afterId: 0, limit: 1 })).events)).toEqual([3]);
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
      expect(s.query(filter(['A'], { startDate: '2026-01-01', endDate: '2026-01-01' })).events).toEqual([]);
      expect(ids(s.query(filter(['A'], { startDate: '2026-01-01', endDate: '2026-01-02' })).events)).toEqual([
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
      expect(ids(s.query(filter(['A'], { startDate: '2026-01-01', endDate: '2026-01-02' })).events)).toEqual([
        4,
      ]);
      expect(ids(s.query(filter(['A'], { startDate: '2026-01-01' })).events)).toEqual([3, 4]);
    });

    test('a cap of 1 keeps only the newest event', () => {
      const s = new EventStore({ maxEvents: 1, clock });
      s.append(input('A', '2026-01-01'));
      const last = s.append(input('B', '2026-01-02'));
      expect(s.size).toBe(1);
      expect(s.query(filter(['A', 'B'])).events).toEqual([last]);
      expect(datesOf(s, 'A')).toEqual([]);
    });

    test('matches a plain scan for random queries while evicting (model check)', () => {
      const rand = mulberry32(2026);
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
          const page = s.query(f);
          expect({ ids: ids(page.events), hasMore: page.hasMore }).toEqual(naive(kept, f));
        }
      }
      expect(s.size).toBe(300);
    });
  });

  describe('broad subscriptions (read by walking the global log)', () => {
    test('matches the reference on logs where the channels come in long runs', () => {
      const rand = mulberry32(7);
      const s = new EventStore({ maxEvents: 5000, clock });
      const all: StoredEvent[] = [];
      // Runs of one channel hundreds of events long, so a scan meets stretches with nothing for
      // the caller and must hand over to the merge without losing or repeating an event.
      const channels = ['A', 'B', 'C', 'D'];
      while (all.length < 6000) {
        const channel = channels[Math.floor(rand() * channels.length)] as string;
        const run = 1 + Math.floor(rand() * (rand() < 0.3 ? 900 : 20));
        for (let k = 0; k < run; k++) {
          all.push(s.append({ channel, date: '2026-03-01', raceNr: 1 + (k % 3), payload: { k } }));
        }
      }
      const kept = all.slice(-5000);
      const first = (kept[0] as StoredEvent).eventId;
      for (let q = 0; q < 400; q++) {
        const wanted = channels.filter(() => rand() < 0.75);
        if (wanted.length === 0) continue;
        const f = filter(wanted, {
          afterId: first - 50 + Math.floor(rand() * 5100),
          limit: 1 + Math.floor(rand() * 150),
          ...(rand() < 0.2 && { raceNr: 2 }),
        });
        const page = s.query(f);
        expect({ ids: ids(page.events), hasMore: page.hasMore }).toEqual(naive(kept, f));
      }
    });

    test('a stretch with nothing for the caller is handed to the merge, the page still full', () => {
      const s = new EventStore({ maxEvents: 100_000, clock });
      for (let i = 0; i < 3000; i++) s.append(input('A'));
      for (let i = 0; i < 5000; i++) s.append(input('B'));
      for (let i = 0; i < 3000; i++) s.append(input('A'));
      // A and C hold over half the log, so the read starts as a scan; B's run outlasts it.
      s.append(input('C'));
      const page = s.query(filter(['A', 'C'], { afterId: 2990, limit: 20 }));
      expect(ids(page.events)).toEqual([
        ...Array.from({ length: 10 }, (_, k) => 2991 + k),
        ...Array.from({ length: 10 }, (_, k) => 8001 + k),
      ]);
      expect(page.hasMore).toBe(true);
      const tail = s.query(filter(['A', 'C'], { afterId: 10_990, limit: 20 }));
      expect(ids(tail.events)).toEqual([...Array.from({ length: 10 }, (_, k) => 10_991 + k), 11_001]);
      expect(tail.hasMore).toBe(false);
    });
  });

  describe('paging and scale', () => {
    test('paging 10,000 events across several channels with limit 97 yields every event exactly once, in order', () => {
      const channels = ['A', 'B', 'C', 'D', 'E'];
      const rand = mulberry32(1);
      const all: StoredEvent[] = [];
      for (let i = 0; i < 10_000; i++) {
        all.push(
          store.append(
            input(channels[Math.floor(rand() * channels.length)] as string, `2026-01-0${1 + (i % 7)}`),
          ),
        );
      }
      for (const wanted of [channels, ['B', 'D'], ['E']]) {
        const expected = all.filter((e) => wanted.includes(e.channel)).map((e) => e.eventId);
        const seen: number[] = [];
        let afterId = 0;
        let pages = 0;
        for (;;) {
          const page = store.query({ channels: wanted, afterId, limit: 97 });
          pages++;
          seen.push(...ids(page.events));
          if (!page.hasMore) break;
          expect(page.events).toHaveLength(97);
          afterId = (page.events[page.events.length - 1] as StoredEvent).eventId;
        }
        expect(seen).toEqual(expected);
        expect(pages).toBe(Math.max(1, Math.ceil(expected.length / 97)));
      }
    });

    test('paging with a date range and a trackId filter also yields each match exactly once', () => {
      const rand = mulberry32(5);
      const all: StoredEvent[] = [];
      for (let i = 0; i < 10_000; i++) {
        all.push(
          store.append(
            input(
              rand() < 0.5 ? 'A' : 'B',
              `2026-02-${String(1 + Math.floor(rand() * 28)).padStart(2, '0')}`,
              {
                trackId: Math.floor(rand() * 4),
              },
            ),
          ),
        );
      }
      const f = { channels: ['A', 'B'], startDate: '2026-02-05', endDate: '2026-02-12', trackId: 2 };
      const expected = naive(all, { ...f, afterId: 0, limit: Infinity }).ids;
      expect(expected.length).toBeGreaterThan(300);
      const seen: number[] = [];
      let afterId = 0;
      for (;;) {
        const page = store.query({ ...f, afterId, limit: 97 });
        seen.push(...ids(page.events));
        if (!page.hasMore) break;
        afterId = (page.events[page.events.length - 1] as StoredEvent).eventId;
      }
      expect(seen).toEqual(expected);
    });

    describe('200,000 events over 8 channels and 25 days', () => {
      const channels = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'];
      const day = (i: number) => `2026-04-${String(1 + i).padStart(2, '0')}`;
      let big: EventStore;

      beforeAll(() => {
        big = new EventStore({ maxEvents: 1_000_000, clock: new ManualClock() });
        for (let i = 0; i < 200_000; i++) {
          big.append({ channel: channels[i % 8] as string, date: day(Math.floor(i / 8000)), payload: {} });
        }
      });

      afterEach(() => {
        jest.restoreAllMocks();
      });

      test('a channel + date-range query returns exactly the events of those days', () => {
        // Channel C is i % 8 === 2; days 10..12 hold i in [80000, 104000).
        const page = big.query({
          channels: ['C'],
          afterId: 0,
          limit: 10_000,
          startDate: day(10),
          endDate: day(12),
        });
        expect(page.hasMore).toBe(false);
        expect(page.events).toHaveLength(3000);
        expect(page.events[0]?.eventId).toBe(80_000 + 2 + 1);
        expect(page.events.at(-1)?.eventId).toBe(104_000 - 6 + 1);
        expect(page.events.every((e) => e.channel === 'C' && e.date >= day(10) && e.date <= day(12))).toBe(
          true,
        );
      });

      test('a channel + date-range query only touches the events of the selected buckets', () => {
        const at = jest.spyOn(AppendLog.prototype, 'at');
        const page = big.query({
          channels: ['C'],
          afterId: 0,
          limit: 100,
          startDate: day(20),
          endDate: day(21),
        });
        expect(page.events).toHaveLength(100);
        expect(page.hasMore).toBe(true);
        // One initial read per bucket plus one per event popped: nowhere near the 200,000 stored.
        expect(at.mock.calls.length).toBeLessThanOrEqual(100 + 1 + 2 * 2);
      });

      test('resuming from an afterId in the middle uses binary search, not a scan', () => {
        const at = jest.spyOn(AppendLog.prototype, 'at');
        const page = big.query({ channels: ['A', 'B'], afterId: 150_000, limit: 10 });
        expect(ids(page.events)).toEqual([
          150_001, 150_002, 150_009, 150_010, 150_017, 150_018, 150_025, 150_026, 150_033, 150_034,
        ]);
        expect(at.mock.calls.length).toBeLessThanOrEqual(10 + 1 + 2 * 2);
      });

      test('latest() and the newest page agree', () => {
        expect(big.latest(['H'])?.eventId).toBe(200_000);
        expect(big.latest(['A'])?.eventId).toBe(199_993);
        const page = big.query({ channels: ['A'], afterId: 199_000, limit: 10_000 });
        expect(page.events.at(-1)?.eventId).toBe(199_993);
      });
    });

    test('evicting 45,000 of 60,000 events keeps every index consistent', () => {
      const s = new EventStore({ maxEvents: 15_000, clock });
      const date = (i: number) => `2026-05-${String(1 + Math.floor(i / 3000)).padStart(2, '0')}`;
      for (let i = 0; i < 60_000; i++)
        s.append({ channel: i % 3 === 0 ? 'A' : 'B', date: date(i), payload: {} });
      expect(s.size).toBe(15_000);
      const everything = s.query({ channels: ['A', 'B'], afterId: 0, limit: 100_000 });
      expect(everything.events).toHaveLength(15_000);
      expect(everything.events[0]?.eventId).toBe(45_001);
      expect(everything.events.at(-1)?.eventId).toBe(60_000);
      // Days 1..15 held only evicted events (i < 45,000): their buckets are gone.
      expect(datesOf(s, 'A')).toEqual(['2026-05-16', '2026-05-17', '2026-05-18', '2026-05-19', '2026-05-20']);
      expect(datesOf(s, 'B')).toEqual(['2026-05-16', '2026-05-17', '2026-05-18', '2026-05-19', '2026-05-20']);
      expect(s.query({ channels: ['A', 'B'], afterId: 0, limit: 10, endDate: '2026-05-15' }).events).toEqual(
        [],
      );
      const a = s.query({ channels: ['A'], afterId: 0, limit: 100_000, startDate: '2026-05-16' });
      expect(a.events[0]?.eventId).toBe(45_001);
      expect(a.events.every((e) => e.channel === 'A' && e.eventId > 45_000)).toBe(true);
      expect(a.events).toHaveLength(5_000);
      expect(s.latest(['A'])?.eventId).toBe(59_998);
    });
  });

  describe('cached JSON text', () => {
    test('json(event) is exactly JSON.stringify(event), optional ids and non-ASCII payloads included', () => {
      const events = [
        store.append(input('A')),
        store.append(input('B', '2026-01-02', { trackId: 0, raceNr: 3, startNr: 12 })),
        store.append({
          channel: 'A',
          date: '2026-01-03',
          payload: { track: 'Åby', name: 'Järvsöfaks ✓ 🐎' },
        }),
        store.append({ channel: 'C', date: '2026-01-03', trackId: 7, payload: { quote: '"\\\n\u2028' } }),
      ];
      for (const event of events) expect(store.json(event)).toBe(JSON.stringify(event));
    });

    test('joinJson is the UTF-8 of head, the events joined by commas, and tail', () => {
      const events = [
        store.append(input('A')),
        store.append({ channel: 'A', date: '2026-01-03', payload: { track: 'Färjestad', horse: '🐎' } }),
        store.append(input('B', '2026-01-04', { raceNr: 1 })),
      ];
      const joined = (list: StoredEvent[]) => store.joinJson(list, '{"events":[', ']}');
      const expected = (list: StoredEvent[]) =>
        Buffer.from(`{"events":[${list.map((e) => JSON.stringify(e)).join(',')}]}`, 'utf8');
      expect(joined(events).equals(expected(events))).toBe(true);
      expect(joined([events[1] as StoredEvent]).equals(expected([events[1] as StoredEvent]))).toBe(true);
      expect(joined([]).toString('utf8')).toBe('{"events":[]}');
    });

    test('the text is the event as stored, and stays right for the kept events through eviction', () => {
      const s = new EventStore({ maxEvents: 5, clock });
      const appended: StoredEvent[] = [];
      for (let i = 0; i < 23; i++) {
        appended.push(s.append(input(i % 3 === 0 ? 'A' : 'B', '2026-01-01', { raceNr: i })));
        clock.advance(1);
      }
      const kept = s.query(filter(['A', 'B'])).events;
      expect(ids(kept)).toEqual([19, 20, 21, 22, 23]);
      for (const event of kept) expect(s.json(event)).toBe(JSON.stringify(event));
      // An event the store no longer holds (or never held) is serialised on demand.
      const evicted = appended[0] as StoredEvent;
      expect(s.json(evicted)).toBe(JSON.stringify(evicted));
      const foreign = { ...(kept[0] as StoredEvent), payload: { other: true } };
      expect(s.json(foreign)).toBe(JSON.stringify(foreign));
      const mixed = [evicted, kept[1] as StoredEvent, foreign, kept[4] as StoredEvent];
      expect(s.joinJson(mixed, '[', ']').toString('utf8')).toBe(JSON.stringify(mixed));
    });

    test('keeps the StoredEvent shape: no extra keys, enumerable or not', () => {
      const event = store.append(input('A', '2026-01-01', { trackId: 1 }));
      expect(Reflect.ownKeys(event).sort()).toEqual(
        ['channel', 'created_at', 'date', 'eventId', 'payload', 'trackId'].sort(),
      );
    });
  });
});
