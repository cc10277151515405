import fc from 'fast-check';
import { ManualClock, type EventInput } from '@racedata/core';
import { EventStore } from '../../src/store/event-store';
import { JsonBytesLog, LARGEST_SLAB_BYTES } from '../../src/store/json-bytes-log';
import { StagedEvents } from '../../src/store/staged-events';
import { prepareEvent } from '../../src/store/stored-json';
import type { StoredEvent } from '../../src/store/types';
import { filter, naive } from './event-store-support';

// A seed large enough (more than a megabyte in a chunk of the largest size) is not copied into
// the store: its staging chunk becomes one of the store's slabs, its texts moved up in place to
// make room for created_at and eventId. These tests hold that path to the copying one: the same
// bytes, the same reads, the same evictions.

/** An event whose JSON is about `size` bytes, with ids that need every column width. */
function sized(n: number, size: number, channel = 'Ch'): EventInput {
  return {
    channel,
    date: `2026-03-${String(1 + (n % 28)).padStart(2, '0')}`,
    ...(n % 5 !== 0 && { trackId: n % 7 === 0 ? 70_000 + n : 900 + (n % 20) }),
    ...(n % 4 !== 0 && { raceNr: n % 11 === 0 ? 300 : 1 + (n % 10) }),
    ...(n % 3 !== 0 && { startNr: n % 13 === 0 ? 2 ** 40 + n : 1 + (n % 12) }),
    // Multibyte text: byte lengths and UTF-16 lengths differ.
    payload: { n, text: 'åäö€𝄞x'.repeat(Math.max(0, Math.floor(size / 16))) },
  };
}

function stage(events: readonly EventInput[]): StagedEvents {
  const staged = new StagedEvents();
  for (const event of events) staged.add(prepareEvent(event));
  return staged;
}

/** Every held event read back as an object, and as the bytes a page carries. */
function held(store: EventStore): { events: StoredEvent[]; joined: string } {
  const page = store.query(filter(['Ch', 'Other']));
  const events = store.events(page.ids);
  const target = Buffer.alloc(store.joinedByteLength(page.ids));
  store.joinedJsonTo(page.ids, target, 0);
  return { events, joined: target.toString('utf8') };
}

const slabsOf = (store: EventStore) => (store as unknown as { bytes: { slabs: Buffer[] } }).bytes.slabs;

describe('a large seed becomes the store’s memory instead of a copy of it', () => {
  const clock = new ManualClock(Date.UTC(2026, 2, 14, 12, 0, 0, 5));

  test('the staged chunk is taken as a slab, and every event reads back byte for byte', () => {
    const store = new EventStore({ maxEvents: 1_000_000, clock });
    const before = [store.append(sized(0, 100)), store.append(sized(1, 3000, 'Other'))];
    const inputs = Array.from({ length: 600 }, (_, k) => sized(k + 2, 4000));
    const staged = stage(inputs);
    const chunks = new Set(inputs.map((_, i) => staged.chunk(i)));
    const ids = store.appendStaged(staged);
    expect(ids).toEqual({ firstEventId: 3, lastEventId: 602 });
    // The second chunk (32 MiB, holding more than a megabyte) is now a slab of the log.
    const adopted = [...chunks].filter((c) => slabsOf(store).includes(c));
    expect(adopted.map((c) => c.length)).toEqual([LARGEST_SLAB_BYTES]);
    staged.release();
    const after = store.append(sized(700, 500));
    const { events, joined } = held(store);
    expect(events.map((e) => e.eventId)).toEqual([...Array(603).keys()].map((k) => k + 1));
    expect(events[0]).toEqual(before[0]);
    expect(events.at(-1)).toEqual(after);
    for (const [k, input] of inputs.entries()) {
      const event = events[k + 2] as StoredEvent;
      expect(event).toEqual({ ...input, created_at: event.created_at, eventId: k + 3 });
    }
    expect(joined).toBe(events.map((e) => JSON.stringify(e)).join(','));
  });

  test('a seed larger than the store keeps only its newest events, and reads stay right', () => {
    const store = new EventStore({ maxEvents: 250, clock });
    for (let k = 0; k < 100; k++) store.append(sized(k, 50));
    const inputs = Array.from({ length: 700 }, (_, k) => sized(k, 3000));
    store.appendStaged(stage(inputs));
    const { events, joined } = held(store);
    expect(events.map((e) => e.eventId)).toEqual([...Array(250).keys()].map((k) => k + 551));
    expect(joined).toBe(events.map((e) => JSON.stringify(e)).join(','));
    for (const f of [filter(['Ch'], { trackId: 903 }), filter(['Ch'], { raceNr: 300, startNr: 2 })]) {
      expect(store.query(f)).toEqual(naive(events, f));
    }
  });

  test('a store with a small budget copies instead, keeping what it holds within its budget', () => {
    const store = new EventStore({ maxEvents: 1_000_000, maxBytes: 16 << 20, clock });
    const staged = stage(Array.from({ length: 600 }, (_, k) => sized(k, 4000)));
    const chunks = new Set([...Array(staged.length).keys()].map((i) => staged.chunk(i)));
    store.appendStaged(staged);
    expect(slabsOf(store).filter((s) => chunks.has(s))).toEqual([]);
    expect(Math.max(...slabsOf(store).map((s) => s.length))).toBeLessThan(LARGEST_SLAB_BYTES);
  });

  test('a chunk without room for what the store adds is refused, and the log is unchanged', () => {
    const log = new JsonBytesLog(LARGEST_SLAB_BYTES);
    log.push('{"a":1}');
    const chunk = Buffer.alloc(LARGEST_SLAB_BYTES, 0x20);
    // 5 bytes short of room for `,"x":`, one digit, the brace and the separator.
    const length = LARGEST_SLAB_BYTES - 5;
    const taken = log.adoptAssigned(
      chunk,
      1,
      () => 0,
      () => length,
      Buffer.from(',"x":'),
      7,
    );
    expect(taken).toBe(false);
    expect(log.length).toBe(1);
    expect(log.text(0)).toBe('{"a":1}');
  });

  test('property: seeds and single appends, with evictions, read as the copying store reads', () => {
    const step = fc.oneof(
      fc.record({ kind: fc.constant('append' as const), size: fc.integer({ min: 0, max: 2000 }) }),
      fc.record({
        kind: fc.constant('seed' as const),
        count: fc.integer({ min: 1, max: 200 }),
        size: fc.integer({ min: 0, max: 9000 }),
      }),
    );
    fc.assert(
      fc.property(
        fc.array(step, { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 1, max: 1500 }),
        (steps, max) => {
          // Budgets apart: 256 MiB takes staged chunks as slabs, 8 MiB never does.
          const taking = new EventStore({ maxEvents: max, clock });
          const copying = new EventStore({ maxEvents: max, maxBytes: 8 << 20, clock });
          let n = 0;
          for (const s of steps) {
            if (s.kind === 'append') {
              const input = sized(n++, s.size, n % 2 ? 'Ch' : 'Other');
              taking.append(input);
              copying.append(input);
            } else {
              const inputs = Array.from({ length: s.count }, () => sized(n++, s.size));
              taking.appendStaged(stage(inputs));
              copying.appendStaged(stage(inputs));
            }
          }
          const a = held(taking);
          const b = held(copying);
          expect(a.events.length).toBe(Math.min(max, n));
          expect(a.joined).toBe(b.joined);
          expect(a.events).toEqual(b.events);
        },
      ),
      { numRuns: 30 },
    );
    // A few hundred megabytes are staged and copied over the runs: seconds on a loaded machine.
  }, 60_000);
});
