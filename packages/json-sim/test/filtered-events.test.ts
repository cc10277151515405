import type { EventInput } from '@racedata/core';
import { TOKENS } from '@racedata/test-support';
import {
  FILTERED_PATH,
  closeAll,
  get,
  startSim,
  type EventPageBody,
  type HttpResult,
  type Started,
} from './helpers';

let s: Started;

/** eventId = index + 1. */
const DATA: EventInput[] = [
  { channel: 'RaceDayTrot', date: '2026-01-05', trackId: 5, raceNr: 1, startNr: 1, payload: { k: 1 } }, // 1
  { channel: 'RaceDayTrot', date: '2026-01-05', trackId: 5, raceNr: 2, startNr: 4, payload: { k: 2 } }, // 2
  { channel: 'RaceDayTrot', date: '2026-01-06', trackId: 6, raceNr: 1, payload: { k: 3 } }, // 3
  { channel: 'ResultTrot', date: '2026-01-05', trackId: 5, raceNr: 1, startNr: 3, payload: { k: 4 } }, // 4
  { channel: 'StartListGallop', date: '2026-01-05', trackId: 5, raceNr: 1, payload: { k: 5 } }, // 5 (alluser only)
  { channel: 'RaceDayGallop', date: '2026-01-07', trackId: 7, raceNr: 3, startNr: 1, payload: { k: 6 } }, // 6
  { channel: 'ResultTrot', date: '2025-12-31', payload: { k: 7 } }, // 7: no track/race/start
  { channel: 'StartListTrot', date: '2024-02-29', trackId: 5, raceNr: 1, startNr: 1, payload: { k: 8 } }, // 8
  { channel: 'ScratchingsTrot', date: '2026-01-06', trackId: 6, raceNr: 1, payload: { k: 9 } }, // 9 (alluser only)
];

beforeEach(async () => {
  // A long poll timeout far above the test's expectations proves nothing is ever held here.
  s = await startSim({ longPollTimeoutMs: 10_000, eventsDefaultLimit: 4, eventsMaxLimit: 8 });
  for (const input of DATA) s.probe.publish(input);
  s.probe.publish({ channel: 'TimeToStartTrot', date: '2026-01-05', trackId: 5, payload: {} }); // transient
});

afterEach(closeAll);

function ids(res: HttpResult<EventPageBody>): number[] {
  return (res.body.data?.events ?? []).map((e) => e.eventId);
}

async function query(params: string, token: string = TOKENS.testuser): Promise<HttpResult<EventPageBody>> {
  return get(s.base, `${FILTERED_PATH}${params === '' ? '' : `?${params}`}`, token);
}

async function expectIds(
  params: string,
  expected: number[],
  hasMore = false,
  token: string = TOKENS.testuser,
) {
  const res = await query(params, token);
  expect(res.status).toBe(200);
  expect(res.body.status).toBe('success');
  expect(res.body.data?.numberOfEvents).toBe(expected.length);
  expect(res.body.data?.hasMore).toBe(hasMore);
  expect(ids(res)).toEqual(expected);
  return res;
}

async function expect400(params: string, ...mentions: string[]): Promise<void> {
  const res = await query(params);
  expect(res.status).toBe(400);
  expect(res.body.status).toBe('fail');
  expect(res.body.data).toBeUndefined();
  for (const m of mentions) expect(res.body.message).toContain(m);
}

describe('GET /customerapi/filtered-events: authentication', () => {
  it.each([
    ['no header', {}],
    ['an unknown token', { authorization: 'Bearer nope' }],
    ['a malformed header', { authorization: 'Token abc' }],
  ])('401 for %s', async (_name, init) => {
    const res = await get(s.base, FILTERED_PATH, undefined, init);
    expect(res.status).toBe(401);
    expect(res.body.status).toBe('fail');
  });
});

describe('GET /customerapi/filtered-events: validation (400 naming the parameter)', () => {
  it('refuses a known channel outside the subscription, naming it', async () => {
    await expect400('channel=StartListGallop', 'StartListGallop');
  });

  it('refuses an unknown channel, naming it', async () => {
    await expect400('channel=NoSuchChannel', 'NoSuchChannel');
  });

  it('refuses an empty channel', async () => {
    await expect400('channel=', 'channel');
  });

  it('refuses a channel given twice', async () => {
    await expect400('channel=RaceDayTrot&channel=ResultTrot', 'channel');
  });

  it.each([
    ['startDate=2026-02-30', 'startDate'],
    ['startDate=2026-1-5', 'startDate'],
    ['startDate=2026-13-01', 'startDate'],
    ['startDate=2026-02-29', 'startDate'],
    ['startDate=20260105', 'startDate'],
    ['startDate=', 'startDate'],
    ['startDate=2026-01-05T00:00:00Z', 'startDate'],
    ['endDate=2026-04-31', 'endDate'],
    ['endDate=tomorrow', 'endDate'],
    ['endDate=2026-01-05&endDate=2026-01-06', 'endDate'],
  ])('refuses %s', async (params, name) => {
    await expect400(params, name);
  });

  it('refuses startDate after endDate, naming both', async () => {
    await expect400('startDate=2026-01-07&endDate=2026-01-05', 'startDate', 'endDate');
  });

  it.each([
    ['trackId=abc', 'trackId'],
    ['trackId=-1', 'trackId'],
    ['trackId=1.5', 'trackId'],
    ['raceNr=x', 'raceNr'],
    ['raceNr=', 'raceNr'],
    ['startNr=2.0', 'startNr'],
    ['startNr=-3', 'startNr'],
    ['lastEventId=abc', 'lastEventId'],
    ['lastEventId=-1', 'lastEventId'],
    ['limit=many', 'limit'],
    ['limit=-1', 'limit'],
  ])('refuses %s', async (params, name) => {
    await expect400(params, name);
  });

  it('accepts a leap day', async () => {
    await expectIds('startDate=2024-02-29&endDate=2024-02-29', [8]);
  });

  it('accepts startDate equal to endDate', async () => {
    await expectIds('startDate=2026-01-06&endDate=2026-01-06', [3]);
  });
});

describe('GET /customerapi/filtered-events: filtering', () => {
  it('without parameters considers every subscribed channel (default user)', async () => {
    await expectIds('limit=100', [1, 2, 3, 4, 6, 7, 8]);
  });

  it('without parameters considers every channel for alluser', async () => {
    await expectIds('limit=6', [1, 2, 3, 4, 5, 6], true, TOKENS.alluser);
    await expectIds('lastEventId=6&limit=6', [7, 8, 9], false, TOKENS.alluser);
  });

  it('channel selects one subscribed channel', async () => {
    await expectIds('channel=RaceDayTrot', [1, 2, 3]);
    await expectIds('channel=ResultTrot', [4, 7]);
    await expectIds('channel=StartListGallop', [5], false, TOKENS.alluser);
  });

  it('startDate and endDate bound the event date, inclusive', async () => {
    await expectIds('startDate=2026-01-06', [3, 6]);
    await expectIds('endDate=2025-12-31', [7, 8]);
    await expectIds('startDate=2026-01-05&endDate=2026-01-06', [1, 2, 3, 4]);
    await expectIds(
      'startDate=2026-01-05&endDate=2026-01-06&limit=10',
      [1, 2, 3, 4, 5, 9],
      false,
      TOKENS.alluser,
    );
  });

  it('trackId, raceNr and startNr match exactly; events without the field never match', async () => {
    await expectIds('trackId=5', [1, 2, 4, 8]);
    await expectIds('trackId=5', [1, 2, 4, 5], true, TOKENS.alluser);
    await expectIds('raceNr=1', [1, 3, 4, 8]);
    await expectIds('startNr=1', [1, 6, 8]);
    expect((await query('trackId=0')).status).toBe(204);
  });

  it('combines every filter', async () => {
    await expectIds('channel=RaceDayTrot&startDate=2026-01-05&endDate=2026-01-05', [1, 2]);
    await expectIds('channel=RaceDayTrot&trackId=5&raceNr=2', [2]);
    await expectIds('trackId=5&raceNr=1&startDate=2026-01-01', [1, 4]);
    await expectIds('trackId=5&raceNr=1&startNr=3', [4]);
    await expectIds(
      'channel=ScratchingsTrot&trackId=6&raceNr=1&endDate=2026-01-06',
      [9],
      false,
      TOKENS.alluser,
    );
  });

  it('lastEventId returns matching events after it', async () => {
    await expectIds('lastEventId=2', [3, 4, 6, 7], true);
    await expectIds('lastEventId=2&trackId=5', [4, 8]);
    await expectIds('lastEventId=0&channel=RaceDayTrot', [1, 2, 3]);
  });

  it('limit cuts the page with hasMore; 0 and omitted take the default (4); too big is clamped (8)', async () => {
    await expectIds('limit=2', [1, 2], true);
    await expectIds('lastEventId=2&limit=2', [3, 4], true);
    await expectIds('', [1, 2, 3, 4], true);
    await expectIds('limit=0', [1, 2, 3, 4], true);
    await expectIds('limit=1000', [1, 2, 3, 4, 5, 6, 7, 8], true, TOKENS.alluser);
    await expectIds('limit=7', [1, 2, 3, 4, 6, 7, 8], false);
  });

  it('returns the full event shape', async () => {
    const res = await expectIds('channel=ResultTrot&trackId=5', [4]);
    expect(res.body.data?.events[0]).toEqual({
      ...DATA[3],
      eventId: 4,
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    });
  });

  it.each([
    ['nothing on that date', 'startDate=2030-01-01'],
    ['no such track', 'trackId=999'],
    ['lastEventId past the log', 'lastEventId=100'],
    ['a subscribed transient channel (never stored)', 'channel=TimeToStartTrot'],
    ['a channel with no events', 'channel=StartListTrot&startDate=2026-01-01'],
  ])('answers 204 at once when nothing matches: %s', async (_name, params) => {
    const started = Date.now();
    const res = await query(params);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(Date.now() - started).toBeLessThan(2000);
    expect(s.probe.polls.size).toBe(0);
  });

  it('never returns events outside the subscription, whatever the filters', async () => {
    const res = await query('trackId=6&limit=100');
    expect(ids(res)).toEqual([3]);
    const all = await query('trackId=6&limit=100', TOKENS.alluser);
    expect(ids(all)).toEqual([3, 9]);
  });
});
