import { ManualClock } from '@racedata/core';
import { TOKENS } from '@racedata/test-support';
import {
  EVENTS_PATH,
  ISO_MS,
  closeAll,
  event,
  get,
  startSim,
  waitFor,
  type EventPageBody,
  type HttpResult,
  type Started,
} from './helpers';

afterEach(closeAll);

function ids(res: HttpResult<EventPageBody>): number[] {
  return (res.body.data?.events ?? []).map((e) => e.eventId);
}

function expectPage(res: HttpResult<EventPageBody>, eventIds: number[], hasMore: boolean): void {
  expect(res.status).toBe(200);
  expect(res.body.status).toBe('success');
  expect(res.body.message).toBeUndefined();
  expect(res.body.data?.numberOfEvents).toBe(eventIds.length);
  expect(res.body.data?.hasMore).toBe(hasMore);
  expect(ids(res)).toEqual(eventIds);
}

describe('GET /customerapi/events: authentication', () => {
  let s: Started;
  beforeEach(async () => {
    s = await startSim();
    s.probe.publish(event('RaceDayTrot'));
  });

  it.each([
    ['no authorization header', undefined],
    ['an empty authorization header', ''],
    ['a bare token without scheme', TOKENS.testuser],
    ['the Basic scheme', `Basic ${Buffer.from('testuser:testpassword').toString('base64')}`],
    ['Bearer without a token', 'Bearer'],
    ['Bearer with two words', `Bearer ${TOKENS.testuser} extra`],
    ['an unknown token', 'Bearer dW5rbm93bg=='],
  ])('401 {"status":"fail"} for %s', async (_name, authorization) => {
    const res = await get(s.base, `${EVENTS_PATH}?lastEventId=0`, undefined, {
      ...(authorization !== undefined && { authorization }),
    });
    expect(res.status).toBe(401);
    expect(res.body.status).toBe('fail');
    expect(typeof res.body.message).toBe('string');
    expect(res.body.data).toBeUndefined();
  });

  it('accepts the scheme in any case', async () => {
    const res = await get(s.base, `${EVENTS_PATH}?lastEventId=0`, undefined, {
      authorization: `bearer ${TOKENS.testuser}`,
    });
    expectPage(res, [1], false);
  });

  it('checks the token before the parameters (401 wins over 400)', async () => {
    const res = await get(s.base, `${EVENTS_PATH}?lastEventId=abc`);
    expect(res.status).toBe(401);
  });
});

describe('GET /customerapi/events: parameter validation', () => {
  let s: Started;
  beforeEach(async () => {
    s = await startSim();
    s.probe.publish(event('RaceDayTrot'));
  });

  it.each([
    ['lastEventId=abc', 'lastEventId'],
    ['lastEventId=-1', 'lastEventId'],
    ['lastEventId=1.5', 'lastEventId'],
    ['lastEventId=', 'lastEventId'],
    ['lastEventId=1&lastEventId=2', 'lastEventId'],
    ['lastEventId=0&limit=abc', 'limit'],
    ['lastEventId=0&limit=-1', 'limit'],
    ['lastEventId=0&limit=1.5', 'limit'],
    ['lastEventId=0&limit=2&limit=3', 'limit'],
    ['limit=-5', 'limit'],
  ])('400 {"status":"fail","message"} for ?%s', async (query, name) => {
    const res = await get(s.base, `${EVENTS_PATH}?${query}`, TOKENS.testuser);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body.status).toBe('fail');
    expect(res.body.message).toContain(name);
    expect(res.body.data).toBeUndefined();
  });

  it('accepts lastEventId and limit of 0', async () => {
    const res = await get(s.base, `${EVENTS_PATH}?lastEventId=0&limit=0`, TOKENS.testuser);
    expectPage(res, [1], false);
  });
});

describe('GET /customerapi/events: without lastEventId', () => {
  let s: Started;
  beforeEach(async () => {
    s = await startSim();
  });

  it('returns exactly one event, the latest of the subscription, not a newer unsubscribed one', async () => {
    s.probe.publish(event('RaceDayTrot', { payload: { n: 1 } }));
    s.probe.publish(event('ResultTrot', { payload: { n: 2 } }));
    s.probe.publish(event('ScratchingsTrot', { payload: { n: 3 } })); // not in the default subscription
    s.probe.publish(event('TimeToStartTrot', { payload: { n: 4 } })); // transient: never stored

    const dflt = await get(s.base, EVENTS_PATH, TOKENS.testuser);
    expectPage(dflt, [2], false);
    expect(dflt.body.data?.events[0]).toMatchObject({ channel: 'ResultTrot', payload: { n: 2 } });

    const all = await get(s.base, EVENTS_PATH, TOKENS.alluser);
    expectPage(all, [3], false);
    expect(all.body.data?.events[0]?.channel).toBe('ScratchingsTrot');
  });

  it('ignores limit (always one event)', async () => {
    for (let i = 0; i < 5; i++) s.probe.publish(event('RaceDayTrot', { payload: { n: i } }));
    expectPage(await get(s.base, `${EVENTS_PATH}?limit=3`, TOKENS.testuser), [5], false);
    expectPage(await get(s.base, `${EVENTS_PATH}?limit=0`, TOKENS.testuser), [5], false);
  });

  it('holds the request when the subscription has no event yet, then answers with the new one', async () => {
    const s2 = await startSim({ longPollTimeoutMs: 5000 });
    s2.probe.publish(event('ScratchingsGallop')); // outside the default subscription
    const poll = get(s2.base, EVENTS_PATH, TOKENS.testuser);
    await waitFor(() => s2.probe.polls.size === 1, 'the poll to be held');
    s2.probe.publish(event('StartListTrot', { payload: { fresh: true } }));
    const res = await poll;
    expectPage(res, [2], false);
    expect(res.body.data?.events[0]?.payload).toEqual({ fresh: true });
  });

  it('answers 204 at the timeout when the subscription stays empty', async () => {
    const started = Date.now();
    const res = await get(s.base, EVENTS_PATH, TOKENS.testuser);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
  });
});

describe('GET /customerapi/events: with lastEventId', () => {
  let s: Started;
  beforeEach(async () => {
    s = await startSim({ eventsDefaultLimit: 3, eventsMaxLimit: 5 });
  });

  it('lastEventId=0 returns back-dated events of the subscription, oldest first, with all fields', async () => {
    s.probe.publish(event('RaceDayTrot', { date: '2019-03-01', trackId: 5, raceNr: 2, startNr: 7 }));
    s.probe.publish(event('StartListGallop', { date: '2019-03-02' })); // not subscribed
    s.probe.publish(event('ResultTrot', { date: '2020-12-31', payload: { winner: 3 } }));
    const res = await get(s.base, `${EVENTS_PATH}?lastEventId=0`, TOKENS.testuser);
    expectPage(res, [1, 3], false);
    const [first, second] = res.body.data?.events ?? [];
    expect(first).toEqual({
      channel: 'RaceDayTrot',
      date: '2019-03-01',
      trackId: 5,
      raceNr: 2,
      startNr: 7,
      payload: { n: 1 },
      eventId: 1,
      created_at: expect.stringMatching(ISO_MS),
    });
    expect(second).toEqual({
      channel: 'ResultTrot',
      date: '2020-12-31',
      payload: { winner: 3 },
      eventId: 3,
      created_at: expect.stringMatching(ISO_MS),
    });
    expect(Date.parse(second?.created_at ?? '')).toBeGreaterThanOrEqual(Date.parse(first?.created_at ?? ''));
  });

  it('returns only the events after a previously received eventId', async () => {
    for (let i = 0; i < 4; i++) s.probe.publish(event('RaceDayTrot'));
    expectPage(await get(s.base, `${EVENTS_PATH}?lastEventId=2`, TOKENS.testuser), [3, 4], false);
  });

  describe('limit and hasMore (default 3, max 5)', () => {
    beforeEach(() => {
      for (let i = 0; i < 7; i++) s.probe.publish(event('RaceDayTrot', { payload: { i } }));
    });

    it('limit cuts the page and hasMore says more exist', async () => {
      expectPage(await get(s.base, `${EVENTS_PATH}?lastEventId=0&limit=2`, TOKENS.testuser), [1, 2], true);
    });

    it('omitted limit takes the default', async () => {
      expectPage(await get(s.base, `${EVENTS_PATH}?lastEventId=0`, TOKENS.testuser), [1, 2, 3], true);
    });

    it('limit=0 takes the default', async () => {
      expectPage(await get(s.base, `${EVENTS_PATH}?lastEventId=0&limit=0`, TOKENS.testuser), [1, 2, 3], true);
    });

    it('limit above the maximum is clamped, not refused', async () => {
      const res = await get(s.base, `${EVENTS_PATH}?lastEventId=0&limit=1000`, TOKENS.testuser);
      expectPage(res, [1, 2, 3, 4, 5], true);
    });

    it('hasMore is false when the page ends exactly at the last event', async () => {
      expectPage(
        await get(s.base, `${EVENTS_PATH}?lastEventId=2&limit=5`, TOKENS.testuser),
        [3, 4, 5, 6, 7],
        false,
      );
    });

    it('hasMore is false when fewer events than limit remain', async () => {
      expectPage(await get(s.base, `${EVENTS_PATH}?lastEventId=5&limit=5`, TOKENS.testuser), [6, 7], false);
    });

    it('hasMore ignores events outside the subscription', async () => {
      s.probe.publish(event('ScratchingsTrot'));
      s.probe.publish(event('ResultGallop'));
      expectPage(await get(s.base, `${EVENTS_PATH}?lastEventId=5&limit=2`, TOKENS.testuser), [6, 7], false);
      expectPage(await get(s.base, `${EVENTS_PATH}?lastEventId=5&limit=2`, TOKENS.alluser), [6, 7], true);
    });
  });
});

describe('GET /customerapi/events: long polling', () => {
  it('answers a held poll as soon as a durable message of the subscription arrives', async () => {
    const s = await startSim({ longPollTimeoutMs: 10_000 });
    s.probe.publish(event('RaceDayTrot'));
    const poll = get(s.base, `${EVENTS_PATH}?lastEventId=1`, TOKENS.testuser);
    await waitFor(() => s.probe.polls.size === 1, 'the poll to be held');
    s.probe.publish(event('ResultTrot', { payload: { woke: true } }));
    // Answered from inside the publish, not on some later check.
    expect(s.probe.polls.size).toBe(0);
    const res = await poll;
    expectPage(res, [2], false);
    expect(res.body.data?.events[0]?.payload).toEqual({ woke: true });
    expect(s.probe.polls.size).toBe(0);
  });

  it('wakes every held poll of a subscribed user, not the ones that do not subscribe', async () => {
    const clock = new ManualClock(Date.now());
    const s = await startSim({ longPollTimeoutMs: 400 }, { clock });
    const dflt = get(s.base, `${EVENTS_PATH}?lastEventId=0`, TOKENS.testuser);
    const all = get(s.base, `${EVENTS_PATH}?lastEventId=0`, TOKENS.alluser);
    await waitFor(() => s.probe.polls.size === 2, 'both polls to be held');
    s.probe.publish(event('ResultGallop'));
    expectPage(await all, [1], false);
    expect(s.probe.polls.size).toBe(1);
    clock.advance(400);
    expect((await dflt).status).toBe(204);
  });

  it('a durable message outside the subscription neither appears nor wakes the poll', async () => {
    const clock = new ManualClock(Date.now());
    const s = await startSim({ longPollTimeoutMs: 400 }, { clock });
    const waits = jest.spyOn(s.probe.polls, 'hold');
    const poll = get(s.base, `${EVENTS_PATH}?lastEventId=0`, TOKENS.testuser);
    await waitFor(() => s.probe.polls.size === 1, 'the poll to be held');
    s.probe.publish(event('ScratchingsTrot'));
    s.probe.publish(event('StartListGallop'));
    clock.advance(399);
    expect(s.probe.polls.size).toBe(1);
    clock.advance(1);
    const res = await poll;
    expect(res.status).toBe(204);
    // Not even a spurious wake-up: the handler waited once, for the whole timeout.
    expect(waits).toHaveBeenCalledTimes(1);

    // Still invisible afterwards: the next subscribed event comes alone.
    s.probe.publish(event('RaceDayTrot'));
    expectPage(await get(s.base, `${EVENTS_PATH}?lastEventId=0`, TOKENS.testuser), [3], false);
  });

  it('transient messages never wake a poll, even on subscribed channels', async () => {
    const clock = new ManualClock(Date.now());
    const s = await startSim({ longPollTimeoutMs: 400 }, { clock });
    const waits = jest.spyOn(s.probe.polls, 'hold');
    const poll = get(s.base, `${EVENTS_PATH}?lastEventId=0`, TOKENS.testuser);
    await waitFor(() => s.probe.polls.size === 1, 'the poll to be held');
    s.probe.publish(event('TimeToStartTrot'));
    s.probe.publish(event('Last500MetersTrot'));
    expect(s.probe.polls.size).toBe(1);
    clock.advance(400);
    expect((await poll).status).toBe(204);
    expect(waits).toHaveBeenCalledTimes(1);
    expect(s.probe.store.size).toBe(0);
  });

  it('keeps holding when a wake-up brings nothing after a lastEventId ahead of the log', async () => {
    const clock = new ManualClock(Date.now());
    const s = await startSim({ longPollTimeoutMs: 400 }, { clock });
    const poll = get(s.base, `${EVENTS_PATH}?lastEventId=5`, TOKENS.testuser);
    await waitFor(() => s.probe.polls.size === 1, 'the poll to be held');
    s.probe.publish(event('RaceDayTrot')); // eventId 1: not after 5
    expect(s.probe.polls.size).toBe(1);
    clock.advance(400);
    expect((await poll).status).toBe(204);
  });

  it('answers 204 with an empty body at the timeout', async () => {
    const s = await startSim({ longPollTimeoutMs: 300 });
    const started = Date.now();
    const res = await get(s.base, `${EVENTS_PATH}?lastEventId=0`, TOKENS.testuser);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(s.probe.polls.size).toBe(0);
  });

  it('a held poll whose client aborts leaves nothing behind', async () => {
    const s = await startSim({ longPollTimeoutMs: 10_000 });
    const controller = new AbortController();
    const poll = get(s.base, `${EVENTS_PATH}?lastEventId=0`, TOKENS.testuser, { signal: controller.signal });
    await waitFor(() => s.probe.polls.size === 1, 'the poll to be held');
    controller.abort();
    await expect(poll).rejects.toThrow();
    await waitFor(() => s.probe.polls.size === 0, 'the aborted poll to be dropped', 2000);

    // The simulator still answers the next poller normally.
    s.probe.publish(event('RaceDayTrot'));
    expectPage(await get(s.base, `${EVENTS_PATH}?lastEventId=0`, TOKENS.testuser), [1], false);
  });
});
