import { ControlError, JournalWaitTimeoutError } from 'racedata-sim';
import { closeAll, eventually, get, started } from './support';

afterEach(closeAll);

const message = (n: number) => ({ channel: 'RaceDayTrot', date: '2024-05-11', payload: { n } });

describe('ControlClient: state, reset, journal, clock, metrics', () => {
  test('health() and state() describe the simulator', async () => {
    const { json, legacy } = await started();
    await expect(json.health()).resolves.toMatchObject({ status: 'ok', simulator: 'json' });
    await json.post(message(1));
    const state = await json.state();
    expect(state).toMatchObject({
      simulator: 'json',
      clockOffsetMs: 0,
      store: { events: 1, lastEventId: 1 },
      replay: { on: false, mode: null },
      journal: { entries: 1, lastSeq: 1 },
    });
    expect(state.users.testuser).toEqual({ sockets: 0, heldPolls: 0, queueDepth: 0, unconfirmed: 0 });
    await legacy.inject('<a/>');
    expect(await legacy.state()).toMatchObject({ simulator: 'legacy', queues: { messages: 1 } });
  });

  test('reset() clears what it is asked to and says what it cleared; eventIds restart', async () => {
    const { json } = await started();
    await json.post(message(1));
    await json.post(message(2));
    const result = await json.reset();
    expect(result).toEqual({
      cleared: {
        events: 2,
        heldPolls: 0,
        sockets: 0,
        journalEntries: 2,
        faultRules: 0,
        tokenExpiries: 0,
        clockOffsetMs: 0,
      },
      eventIds: 'restart',
    });
    expect(await json.post(message(3))).toMatchObject({ event: { eventId: 1 } });
    // Only what is asked for: the journal stays, ids go on.
    const partial = await json.reset({ journal: false, eventIds: 'continue' });
    expect(partial.cleared).toMatchObject({ events: 1, journalEntries: 0 });
    expect(await json.post(message(4))).toMatchObject({ event: { eventId: 2 } });
  });

  test('journal() filters and pages with since/nextSince', async () => {
    const { json } = await started();
    await json.post(message(1));
    await json.post(message(2));
    await get(`${json.baseUrl}/customerapi/events?lastEventId=0`);
    const delivered = await json.journal({ kind: 'delivered', user: 'testuser', transport: 'events' });
    expect(delivered.entries).toEqual([
      expect.objectContaining({ kind: 'delivered', eventId: 1, status: 200, channel: 'RaceDayTrot' }),
      expect.objectContaining({ kind: 'delivered', eventId: 2, status: 200 }),
    ]);
    const first = await json.journal({ kind: 'received', limit: 1 });
    expect(first.entries).toEqual([
      expect.objectContaining({ kind: 'received', source: 'post', eventId: 1 }),
    ]);
    const next = await json.journal({ kind: 'received', since: first.nextSince });
    expect(next.entries.map((e) => e.kind === 'received' && e.eventId)).toEqual([2]);
  });

  test('waitFor() resolves once a later delivery happens, with the matching entries', async () => {
    const { json } = await started();
    const since = (await json.state()).journal.lastSeq;
    const waiting = json.waitFor({ kind: 'delivered', user: 'testuser', since }, { count: 1, timeout: 5000 });
    await json.post(message(1));
    await get(`${json.baseUrl}/customerapi/events?lastEventId=0`);
    const page = await waiting;
    expect(page.entries).toEqual([
      expect.objectContaining({ kind: 'delivered', user: 'testuser', transport: 'events', eventId: 1 }),
    ]);
  });

  test('waitFor() that times out throws JournalWaitTimeoutError carrying what it saw', async () => {
    const { json } = await started();
    await json.post(message(1));
    const error = await json
      .waitFor({ kind: 'received' }, { count: 2, timeout: 50 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JournalWaitTimeoutError);
    expect(error).toBeInstanceOf(ControlError);
    const timeout = error as JournalWaitTimeoutError;
    expect(timeout).toMatchObject({ status: 408, code: 'JOURNAL_WAIT_TIMEOUT', count: 2, timeoutMs: 50 });
    expect(timeout.filter).toEqual({ kind: 'received' });
    expect(timeout.entries).toEqual([expect.objectContaining({ kind: 'received', eventId: 1 })]);
    expect(timeout.nextSince).toBe(1);
    expect(timeout.message).toContain('1 matched');
  });

  test('waitFor() with a filter the server refuses is a ControlError with the server’s code and message', async () => {
    const { legacy } = await started();
    const error = (await legacy.waitFor({ user: 'nobody' }).catch((e: unknown) => e)) as ControlError;
    expect(error).toBeInstanceOf(ControlError);
    expect(error).not.toBeInstanceOf(JournalWaitTimeoutError);
    expect(error).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
    expect(error.message).toMatch(/unknown user "nobody"; known: testuser/);
  });

  test('advanceClock() past a held poll’s timeout fires it: the poll is answered 204 at once', async () => {
    const { legacy, legacyUrl } = await started({ settings: { longPollTimeoutMs: 60_000 } });
    const poll = get(`${legacyUrl}/customerapi/channels/listen`);
    await eventually(async () => (await legacy.state()).users.testuser?.heldPolls === 1, 'a held poll');
    const advance = await legacy.advanceClock(60_000);
    expect(advance.timersFired).toBe(1);
    expect((await poll).status).toBe(204);
  });

  test('advanceClock() moves the simulator’s clock: a queued legacy message older than 24 h is gone', async () => {
    const { legacy } = await started();
    await legacy.inject('<old/>');
    const advance = await legacy.advanceClock(25 * 3_600_000);
    expect(advance).toMatchObject({ advancedMs: 90_000_000, clockOffsetMs: 90_000_000 });
    // Nothing was scheduled: a queued message's 24 h are checked when the queue is read.
    expect(advance.timersFired).toBe(0);
    const state = await legacy.state();
    expect(state.clockOffsetMs).toBe(90_000_000);
    expect(Date.parse(state.time) - Date.now()).toBeGreaterThan(89_000_000);
    expect(state.queues?.messages).toBe(0);
  });

  test('metrics() is the Prometheus text, counting what happened', async () => {
    const { json } = await started();
    await json.post(message(1));
    const text = await json.metrics();
    expect(text).toContain('# TYPE racedata_http_requests_total counter');
    expect(text).toMatch(/racedata_messages_received_total\{source="post"\} 1/);
  });
});
