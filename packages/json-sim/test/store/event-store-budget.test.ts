import { ManualClock, SimError, type Clock } from '@racedata/core';
import { joinEventJson } from '../../src/http/event-json';
import { EventStore } from '../../src/store/event-store';
import { storedEventCost } from '../../src/store/stored-json';
import type { StoredEvent } from '../../src/store/types';
import { filter, ids, input, read } from './event-store-support';

/** One event's JSON as a page carries it: copied from the store's cached bytes when it holds it. */
const jsonOf = (store: EventStore, event: StoredEvent) =>
  joinEventJson(store, [event.eventId], '', '').toString('utf8');

function deepPayload(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = { leaf: 1 };
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
}

/** Everything a reader can see of the store, to compare before and after a refused append. */
function snapshot(store: EventStore, channels: string[]) {
  const page = read(store, filter(channels));
  return {
    size: store.size,
    lastEventId: store.lastEventId,
    bytesHeld: store.bytesHeld,
    ids: ids(page.events),
    json: joinEventJson(store, ids(page.events), '[', ']').toString('utf8'),
    latest: store.latest(channels)?.eventId,
  };
}

describe('EventStore: an append is all or nothing', () => {
  let clock: ManualClock;
  let store: EventStore;

  beforeEach(() => {
    clock = new ManualClock(Date.UTC(2026, 2, 14, 12));
    store = new EventStore({ maxEvents: 1000, clock });
    store.append(input('A'));
    store.append(input('B', '2026-01-02'));
  });

  const unserialisable: Array<[string, () => Record<string, unknown>]> = [
    ['nested too deep for JSON.stringify', () => deepPayload(20_000)],
    [
      'circular',
      () => {
        const p: Record<string, unknown> = {};
        p.self = p;
        return p;
      },
    ],
    [
      'with a toJSON that throws',
      () => ({
        toJSON() {
          throw new Error('no');
        },
      }),
    ],
    ['holding a BigInt', () => ({ n: BigInt(1) })],
  ];

  test.each(unserialisable)('a payload %s throws and changes nothing', (_name, make) => {
    const before = snapshot(store, ['A', 'B', 'C']);
    expect(() => store.append({ channel: 'C', date: '2026-01-03', payload: make() })).toThrow();
    expect(snapshot(store, ['A', 'B', 'C'])).toEqual(before);
    // No index for the refused event's channel or date was left behind.
    expect(read(store, filter(['C'])).events).toEqual([]);
    expect(read(store, filter(['A', 'B', 'C'], { startDate: '2026-01-03' })).events).toEqual([]);
  });

  test('after a refused append the next event takes the next eventId and reads stay in step', () => {
    expect(() => store.append({ channel: 'A', date: '2026-01-01', payload: deepPayload(20_000) })).toThrow(
      RangeError,
    );
    const next = store.append(input('C'));
    expect(next.eventId).toBe(3);
    const page = read(store, filter(['A', 'B', 'C']));
    expect(ids(page.events)).toEqual([1, 2, 3]);
    // Each event's cached JSON is its own, not a neighbour's.
    for (const e of page.events) expect(jsonOf(store, e)).toBe(JSON.stringify(e));
    expect(JSON.parse(joinEventJson(store, ids(page.events), '[', ']').toString('utf8'))).toEqual(
      JSON.parse(JSON.stringify(page.events)),
    );
    expect(read(store, filter(['A'])).events.map((e) => e.channel)).toEqual(['A']);
  });

  test('created_at of a refused event does not hold back later ones', () => {
    let now = Date.UTC(2026, 2, 14, 12);
    const jumpy: Clock = {
      now: () => now,
      setTimeout: clock.setTimeout.bind(clock),
      setInterval: clock.setInterval.bind(clock),
    };
    const s = new EventStore({ maxEvents: 100, clock: jumpy });
    s.append(input('A'));
    now += 60_000;
    expect(() => s.append({ channel: 'A', date: '2026-01-01', payload: deepPayload(20_000) })).toThrow();
    now -= 30_000;
    expect(s.append(input('A')).created_at).toBe('2026-03-14T12:00:30.000Z');
  });
});

describe('EventStore: the byte budget (maxBytes)', () => {
  const clock = new ManualClock(Date.UTC(2026, 2, 14, 12));
  const sized = (channel: string, chars: number) => ({
    channel,
    date: '2026-01-01',
    payload: { s: 'x'.repeat(chars) },
  });
  const costOf = (e: StoredEvent) => storedEventCost(Buffer.byteLength(JSON.stringify(e), 'utf8'));

  test('counts each stored event as its UTF-8 JSON plus a fixed overhead', () => {
    const store = new EventStore({ maxEvents: 100, maxBytes: 1_000_000, clock });
    const a = store.append({ channel: 'A', date: '2026-01-01', payload: { s: 'Åby 🐎' } });
    const b = store.append(sized('B', 1000));
    expect(store.bytesHeld).toBe(costOf(a) + costOf(b));
    expect(costOf(a)).toBe(Buffer.byteLength(JSON.stringify(a), 'utf8') + 200);
  });

  test('drops the oldest events first once the budget is exceeded, and counts the drops', () => {
    const probe = new EventStore({ maxEvents: 100, clock }).append(sized('A', 1000));
    const one = costOf(probe);
    const store = new EventStore({ maxEvents: 100, maxBytes: one * 3 + 10, clock });
    for (let i = 0; i < 10; i++) store.append(sized(i % 2 === 0 ? 'A' : 'B', 1000));
    expect(store.size).toBe(3);
    expect(store.dropped).toBe(7);
    expect(store.bytesHeld).toBeLessThanOrEqual(one * 3 + 10);
    expect(ids(read(store, filter(['A', 'B'])).events)).toEqual([8, 9, 10]);
    expect(ids(read(store, filter(['A'])).events)).toEqual([9]);
  });

  test('the count cap and the byte cap both hold; drops are counted for either', () => {
    const store = new EventStore({ maxEvents: 2, maxBytes: 10_000_000, clock });
    for (let i = 0; i < 5; i++) store.append(sized('A', 10));
    expect(store.size).toBe(2);
    expect(store.dropped).toBe(3);
  });

  test('an event larger than the whole budget is refused with 413 and nothing changes', () => {
    const store = new EventStore({ maxEvents: 100, maxBytes: 5000, clock });
    store.append(sized('A', 10));
    const before = snapshot(store, ['A']);
    let caught: unknown;
    try {
      store.append(sized('A', 6000));
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(SimError);
    expect(caught).toMatchObject({ code: 'EVENT_TOO_LARGE', status: 413 });
    expect((caught as Error).message).toMatch(/EVENT_STORE_MAX_BYTES is 5000/);
    expect(snapshot(store, ['A'])).toEqual(before);
    expect(store.dropped).toBe(0);
    expect(store.append(sized('A', 10)).eventId).toBe(2);
  });

  test('an event that fills the budget alone evicts everything else but is kept', () => {
    const probe = new EventStore({ maxEvents: 100, clock }).append(sized('A', 2000));
    const store = new EventStore({ maxEvents: 100, maxBytes: costOf(probe), clock });
    store.append(sized('B', 10));
    store.append(sized('B', 10));
    const big = store.append(sized('A', 2000));
    expect(store.size).toBe(1);
    expect(store.latest(['A', 'B'])).toEqual(big);
    expect(store.bytesHeld).toBe(costOf(big));
  });
});
