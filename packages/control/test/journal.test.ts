import fc from 'fast-check';
import { ManualClock } from '@racedata/core';
import { Journal, type JournalPage } from '../src';

const delivered = (user: string, channel = 'Result') =>
  ({ user, transport: 'events', channel, eventId: 1, status: 200 }) as const;

describe('Journal', () => {
  test('keeps at most max entries, oldest dropped first; seq keeps counting', () => {
    const journal = new Journal(new ManualClock(0), 3);
    for (let i = 0; i < 5; i++) journal.delivered(delivered(`u${i}`));
    const page = journal.list({}, 10);
    expect(page.entries.map((e) => e.seq)).toEqual([3, 4, 5]);
    expect(page.nextSince).toBe(5);
    expect(journal.clear()).toBe(3);
    journal.received({ source: 'post', channel: 'Result', durable: true, eventId: 1 });
    expect(journal.list({}, 10).entries[0]?.seq).toBe(6);
  });

  test('filters by user, transport, channel and since; received entries have no user', () => {
    const journal = new Journal(new ManualClock(0), 100);
    journal.received({ source: 'post', channel: 'Result', durable: true, eventId: 1 });
    journal.delivered(delivered('a'));
    journal.delivered(delivered('b', 'Start'));
    expect(journal.list({ user: 'a' }, 10).entries.map((e) => e.seq)).toEqual([2]);
    expect(journal.list({ channel: 'Result' }, 10).entries.map((e) => e.seq)).toEqual([1, 2]);
    expect(journal.list({ transport: 'events', since: 2 }, 10).entries.map((e) => e.seq)).toEqual([3]);
    expect(journal.list({ since: 3 }, 10)).toEqual({ entries: [], nextSince: 3 });
  });

  test('wait answers once enough matching entries exist, or with what it saw at the timeout', () => {
    const clock = new ManualClock(0);
    const journal = new Journal(clock, 100);
    const answers: Array<[JournalPage, boolean]> = [];
    journal.wait({ user: 'a' }, 2, 1_000, (page, complete) => answers.push([page, complete]));
    journal.delivered(delivered('a'));
    journal.delivered(delivered('b'));
    expect(answers).toEqual([]);
    journal.delivered(delivered('a'));
    expect(answers).toHaveLength(1);
    expect(answers[0]?.[1]).toBe(true);
    expect(answers[0]?.[0].entries.map((e) => e.seq)).toEqual([1, 3]);

    journal.wait({ user: 'c' }, 1, 1_000, (page, complete) => answers.push([page, complete]));
    clock.advance(1_000);
    expect(answers[1]).toEqual([{ entries: [], nextSince: 0 }, false]);
  });
});

describe('Journal waits', () => {
  test('property: a wait answers at the entry a re-read would, across ring drops and clears', () => {
    const op = fc.oneof(fc.constantFrom('a', 'b'), fc.constant('clear'));
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 6 }),
        fc.array(op),
        (max, count, ops) => {
          const journal = new Journal(new ManualClock(0), max);
          journal.delivered(delivered('a'));
          const answers: Array<[JournalPage, boolean]> = [];
          journal.wait({ user: 'a', since: 0 }, count, 1_000, (page, complete) =>
            answers.push([page, complete]),
          );
          // The model: the wait is due once the journal holds `count` matching entries.
          let due = journal.list({ user: 'a' }, count).entries.length >= count;
          for (const step of ops) {
            if (answers.length > 0 || due) break;
            if (step === 'clear') journal.clear();
            else journal.delivered(delivered(step));
            due = journal.list({ user: 'a' }, count).entries.length >= count;
            expect(answers.length).toBe(due ? 1 : 0);
          }
          if (answers[0]) {
            expect(answers[0]).toEqual([journal.list({ user: 'a' }, count), true]);
            expect(answers[0][0].entries).toHaveLength(count);
          }
          expect(journal.waiterCount).toBe(answers.length > 0 || due ? 0 : 1);
        },
      ),
    );
  });

  test('waits one entry completes are answered one per turn of the event loop, each in full', async () => {
    const journal = new Journal(new ManualClock(0), 10);
    const answers: Array<[number, boolean]> = [];
    for (let i = 0; i < 3; i++)
      journal.wait({ user: 'a' }, 2, 1_000, (page, complete) =>
        answers.push([page.entries.length, complete]),
      );
    journal.delivered(delivered('a'));
    journal.delivered(delivered('a'));
    expect(answers).toEqual([[2, true]]);
    expect(journal.waiterCount).toBe(2);
    await new Promise((resolve) => setImmediate(resolve));
    expect(answers).toEqual([
      [2, true],
      [2, true],
    ]);
    journal.close();
    expect(answers).toEqual([
      [2, true],
      [2, true],
      [2, true],
    ]);
    expect(journal.waiterCount).toBe(0);
  });

  test("past the journal's waiter limit a wait is refused with JOURNAL_WAITERS_LIMIT", () => {
    const journal = new Journal(new ManualClock(0), 10, undefined, 1);
    const cancel = journal.wait({}, 1, 1_000, () => undefined);
    expect(() => journal.wait({}, 1, 1_000, () => undefined)).toThrow(
      expect.objectContaining({ code: 'JOURNAL_WAITERS_LIMIT', status: 429 }),
    );
    // A wait already satisfied is answered at once and never held, so the limit does not apply.
    journal.delivered(delivered('a'));
    cancel();
    expect(journal.waiterCount).toBe(0);
  });
});

describe('Journal ring (columns)', () => {
  test('property: after any appends and clears it lists what a plain array model keeps', () => {
    const kinds = ['received', 'delivered', 'closed'] as const;
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 150 }),
        fc.array(
          fc.oneof(
            fc.record({
              op: fc.constant('add' as const),
              kind: fc.constantFrom(...kinds),
              user: fc.constantFrom('a', 'b'),
            }),
            fc.record({ op: fc.constant('clear' as const) }),
          ),
          { maxLength: 400 },
        ),
        fc.nat({ max: 450 }),
        (max, ops, since) => {
          const clock = new ManualClock(1_000);
          const journal = new Journal(clock, max);
          let model: Array<{ seq: number; kind: string; user?: string }> = [];
          let seq = 0;
          for (const step of ops) {
            if (step.op === 'clear') {
              journal.clear();
              model = [];
              continue;
            }
            seq++;
            clock.advance(1);
            if (step.kind === 'received') {
              journal.received({ source: 'post', channel: 'Result', durable: true, eventId: seq });
              model.push({ seq, kind: 'received' });
            } else if (step.kind === 'delivered') {
              journal.delivered({
                user: step.user,
                transport: 'listen',
                channel: 'Result',
                payloadKey: `k${seq}`,
                status: 200,
              });
              model.push({ seq, kind: 'delivered', user: step.user });
            } else {
              journal.closed({ user: step.user, transport: 'stomp', code: 4000 + (seq % 10) });
              model.push({ seq, kind: 'closed', user: step.user });
            }
            if (model.length > max) model.shift();
          }
          const page = journal.list({ since, user: 'a' }, 1_000);
          const expected = model.filter((e) => e.seq > since && e.kind !== 'received' && e.user === 'a');
          expect(page.entries.map((e) => e.seq)).toEqual(expected.map((e) => e.seq));
          expect(journal.size).toBe(model.length);
          for (const entry of page.entries) {
            expect(entry.time).toBe(new Date(1_000 + entry.seq).toISOString());
            if (entry.kind === 'delivered') expect(entry.payloadKey).toBe(`k${entry.seq}`);
            if (entry.kind === 'closed') expect(entry.code).toBe(4000 + (entry.seq % 10));
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  test('counts entries by label for the metrics, across clears', () => {
    const journal = new Journal(new ManualClock(0), 2);
    journal.delivered(delivered('a'));
    journal.delivered(delivered('b'));
    journal.clear();
    journal.delivered(delivered('a'));
    journal.closed({ user: 'a', transport: 'stomp', code: 4001 });
    expect(journal.counts.delivered.get('events')).toBe(3);
    expect(journal.counts.closed.get('stomp 4001')).toBe(1);
  });
});

test('deliveredPage records one entry per event with one time, and wakes a waiter', () => {
  const clock = new ManualClock(5_000);
  const journal = new Journal(clock, 10);
  const answers: JournalPage[] = [];
  journal.wait({ user: 'u', transport: 'events' }, 3, 1_000, (page) => answers.push(page));
  journal.deliveredPage('u', 'events', 200, [7, 8, 9], (id) => (id === 8 ? 'Start' : 'Result'));
  expect(answers[0]?.entries).toEqual([
    {
      seq: 1,
      time: new Date(5_000).toISOString(),
      kind: 'delivered',
      user: 'u',
      transport: 'events',
      channel: 'Result',
      eventId: 7,
      status: 200,
    },
    {
      seq: 2,
      time: new Date(5_000).toISOString(),
      kind: 'delivered',
      user: 'u',
      transport: 'events',
      channel: 'Start',
      eventId: 8,
      status: 200,
    },
    {
      seq: 3,
      time: new Date(5_000).toISOString(),
      kind: 'delivered',
      user: 'u',
      transport: 'events',
      channel: 'Result',
      eventId: 9,
      status: 200,
    },
  ]);
  expect(journal.counts.delivered.get('events')).toBe(3);
});

test('deliveredEach records one entry per recipient in order with one time, and tells listeners', () => {
  const clock = new ManualClock(7_000);
  const journal = new Journal(clock, 10);
  const told: string[] = [];
  journal.onEntry((entry) => told.push('user' in entry ? String(entry.user) : '?'));
  const answers: JournalPage[] = [];
  journal.wait({ user: 'b', transport: 'stomp' }, 1, 1_000, (page) => answers.push(page));
  journal.deliveredEach(['a', 'b', 'a'], { transport: 'stomp', channel: 'id', payloadKey: 'k', status: 101 });
  journal.deliveredEach([], { transport: 'stomp', channel: 'id', status: 101 });
  const entry = (seq: number, user: string) => ({
    seq,
    time: new Date(7_000).toISOString(),
    kind: 'delivered',
    user,
    transport: 'stomp',
    channel: 'id',
    payloadKey: 'k',
    status: 101,
  });
  expect(journal.list({}, 10).entries).toEqual([entry(1, 'a'), entry(2, 'b'), entry(3, 'a')]);
  expect(told).toEqual(['a', 'b', 'a']);
  expect(answers[0]?.entries).toEqual([entry(2, 'b')]);
  expect(journal.counts.delivered.get('stomp')).toBe(3);
});
