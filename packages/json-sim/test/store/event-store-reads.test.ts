import { ManualClock } from '@racedata/core';
import { seededRandom } from '@racedata/test-support/seeded-random';
import { joinEventJson } from '../../src/http/event-json';
import { IdList } from '../../src/store/id-list';
import { EventStore } from '../../src/store/event-store';
import type { StoredEvent } from '../../src/store/types';
import { datesOf, filter, ids, input, naive, read } from './event-store-support';

/** One event's JSON as a page carries it: copied from the store's cached bytes when it holds it. */
const jsonOf = (store: EventStore, event: StoredEvent) =>
  joinEventJson(store, [event.eventId], '', '').toString('utf8');

describe('EventStore reads: broad subscriptions, paging at scale, cached JSON', () => {
  let clock: ManualClock;
  let store: EventStore;

  beforeEach(() => {
    clock = new ManualClock(Date.UTC(2026, 2, 14, 12, 0, 0, 5));
    store = new EventStore({ maxEvents: 1_000_000, clock });
  });

  describe('broad subscriptions (read by walking the global log)', () => {
    test('matches the reference on logs where the channels come in long runs', () => {
      const rand = seededRandom(7);
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
        const page = read(s, f);
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
      const page = read(s, filter(['A', 'C'], { afterId: 2990, limit: 20 }));
      expect(ids(page.events)).toEqual([
        ...Array.from({ length: 10 }, (_, k) => 2991 + k),
        ...Array.from({ length: 10 }, (_, k) => 8001 + k),
      ]);
      expect(page.hasMore).toBe(true);
      const tail = read(s, filter(['A', 'C'], { afterId: 10_990, limit: 20 }));
      expect(ids(tail.events)).toEqual([...Array.from({ length: 10 }, (_, k) => 10_991 + k), 11_001]);
      expect(tail.hasMore).toBe(false);
    });
  });

  describe('paging and scale', () => {
    test('paging 10,000 events across several channels with limit 97 yields every event exactly once, in order', () => {
      const channels = ['A', 'B', 'C', 'D', 'E'];
      const rand = seededRandom(1);
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
          const page = read(store, { channels: wanted, afterId, limit: 97 });
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
      const rand = seededRandom(5);
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
        const page = read(store, { ...f, afterId, limit: 97 });
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
        const page = read(big, {
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
        const at = jest.spyOn(IdList.prototype, 'at');
        const page = read(big, {
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
        const at = jest.spyOn(IdList.prototype, 'at');
        const page = read(big, { channels: ['A', 'B'], afterId: 150_000, limit: 10 });
        expect(ids(page.events)).toEqual([
          150_001, 150_002, 150_009, 150_010, 150_017, 150_018, 150_025, 150_026, 150_033, 150_034,
        ]);
        expect(at.mock.calls.length).toBeLessThanOrEqual(10 + 1 + 2 * 2);
      });

      test('latest() and the newest page agree', () => {
        expect(big.latest(['H'])?.eventId).toBe(200_000);
        expect(big.latest(['A'])?.eventId).toBe(199_993);
        const page = read(big, { channels: ['A'], afterId: 199_000, limit: 10_000 });
        expect(page.events.at(-1)?.eventId).toBe(199_993);
      });
    });

    test('evicting 45,000 of 60,000 events keeps every index consistent', () => {
      const s = new EventStore({ maxEvents: 15_000, clock });
      const date = (i: number) => `2026-05-${String(1 + Math.floor(i / 3000)).padStart(2, '0')}`;
      for (let i = 0; i < 60_000; i++)
        s.append({ channel: i % 3 === 0 ? 'A' : 'B', date: date(i), payload: {} });
      expect(s.size).toBe(15_000);
      const everything = read(s, { channels: ['A', 'B'], afterId: 0, limit: 100_000 });
      expect(everything.events).toHaveLength(15_000);
      expect(everything.events[0]?.eventId).toBe(45_001);
      expect(everything.events.at(-1)?.eventId).toBe(60_000);
      // Days 1..15 held only evicted events (i < 45,000): their buckets are gone.
      expect(datesOf(s, 'A')).toEqual(['2026-05-16', '2026-05-17', '2026-05-18', '2026-05-19', '2026-05-20']);
      expect(datesOf(s, 'B')).toEqual(['2026-05-16', '2026-05-17', '2026-05-18', '2026-05-19', '2026-05-20']);
      expect(read(s, { channels: ['A', 'B'], afterId: 0, limit: 10, endDate: '2026-05-15' }).events).toEqual(
        [],
      );
      const a = read(s, { channels: ['A'], afterId: 0, limit: 100_000, startDate: '2026-05-16' });
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
      for (const event of events) expect(jsonOf(store, event)).toBe(JSON.stringify(event));
    });

    test('joinEventJson is the UTF-8 of head, the events joined by commas, and tail', () => {
      const events = [
        store.append(input('A')),
        store.append({ channel: 'A', date: '2026-01-03', payload: { track: 'Färjestad', horse: '🐎' } }),
        store.append(input('B', '2026-01-04', { raceNr: 1 })),
      ];
      const joined = (list: StoredEvent[]) =>
        joinEventJson(
          store,
          list.map((e) => e.eventId),
          '{"events":[',
          ']}',
        );
      const expected = (list: StoredEvent[]) =>
        Buffer.from(`{"events":[${list.map((e) => JSON.stringify(e)).join(',')}]}`, 'utf8');
      expect(joined(events).equals(expected(events))).toBe(true);
      expect(joined([events[1] as StoredEvent]).equals(expected([events[1] as StoredEvent]))).toBe(true);
      expect(joined([]).toString('utf8')).toBe('{"events":[]}');
      // Runs of neighbours and gaps, in one page.
      const more = [...events, store.append(input('C')), store.append(input('A'))];
      const picked = [more[0], more[1], more[3], more[4]] as StoredEvent[];
      expect(joined(picked).equals(expected(picked))).toBe(true);
    });

    test('a page is joined right across the slabs the bytes are packed in', () => {
      const s = new EventStore({ maxEvents: 10_000, clock });
      const all: StoredEvent[] = [];
      // About 5 KB each: a 1 MiB slab holds about 200, so 600 span several slabs.
      for (let i = 0; i < 600; i++)
        all.push(s.append({ channel: 'A', date: '2026-01-01', payload: { s: 'é'.repeat(2500), i } }));
      const expected = Buffer.from(JSON.stringify(all), 'utf8');
      expect(
        joinEventJson(
          s,
          all.map((e) => e.eventId),
          '[',
          ']',
        ).equals(expected),
      ).toBe(true);
    });

    test('the text is the event as stored, and stays right for the kept events through eviction', () => {
      const s = new EventStore({ maxEvents: 5, clock });
      const appended: StoredEvent[] = [];
      for (let i = 0; i < 23; i++) {
        appended.push(s.append(input(i % 3 === 0 ? 'A' : 'B', '2026-01-01', { raceNr: i })));
        clock.advance(1);
      }
      const kept = read(s, filter(['A', 'B'])).events;
      expect(ids(kept)).toEqual([19, 20, 21, 22, 23]);
      for (const event of kept) expect(jsonOf(s, event)).toBe(JSON.stringify(event));
      for (let i = 18; i < 23; i++) expect(s.event(i + 1)).toEqual(appended[i]);
      // An evicted event is no longer held, and is not handed out.
      expect(s.holds(1)).toBe(false);
      expect(s.event(1)).toBeUndefined();
      expect(s.holds(19)).toBe(true);
      expect(s.holds(24)).toBe(false);
    });

    test('keeps the StoredEvent shape: no extra keys, enumerable or not', () => {
      const event = store.append(input('A', '2026-01-01', { trackId: 1 }));
      expect(Reflect.ownKeys(event).sort()).toEqual(
        ['channel', 'created_at', 'date', 'eventId', 'payload', 'trackId'].sort(),
      );
    });
  });
});
