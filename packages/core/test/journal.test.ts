import { Journal, ManualClock, type JournalPage } from '../src';

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
