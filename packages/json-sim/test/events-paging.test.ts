import type { StoredEvent } from '@racedata/json-sim';
import { JSON_CHANNELS } from '../src/description';
import { TOKENS } from '@racedata/test-support';
import { EVENTS_PATH, closeAll, get, startSim, type Started } from './helpers';

const TOTAL = 10_000;
const PAGE = 1000;
/** Every durable channel of the built-in catalog, posted to in turn. */
const DURABLE = JSON_CHANNELS.durable;
const DEFAULT_DURABLE = new Set(['RaceDayTrot', 'StartListTrot', 'ResultTrot', 'RaceDayGallop']);

let s: Started;
/** eventId -> channel of everything published. */
const published = new Map<number, string>();

beforeAll(async () => {
  s = await startSim({ longPollTimeoutMs: 300 });
  for (let i = 0; i < TOTAL; i++) {
    const channel = DURABLE[i % DURABLE.length] as string;
    const result = s.probe.publish({
      channel,
      date: `2026-01-${String((i % 28) + 1).padStart(2, '0')}`,
      trackId: i % 13,
      payload: { i },
    });
    if (result.delivery !== 'durable') throw new Error('expected durable delivery');
    published.set(result.event.eventId, channel);
  }
});

afterAll(closeAll);

/** Pages through /events from lastEventId=0 with limit=PAGE until hasMore is false. */
async function pageThrough(token: string): Promise<{ events: StoredEvent[]; pages: number; last: number }> {
  const events: StoredEvent[] = [];
  let last = 0;
  let pages = 0;
  for (;;) {
    const res = await get(s.base, `${EVENTS_PATH}?lastEventId=${last}&limit=${PAGE}`, token);
    expect(res.status).toBe(200);
    const data = res.body.data;
    if (!data) throw new Error('page without data');
    pages++;
    expect(data.numberOfEvents).toBe(data.events.length);
    expect(data.events.length).toBeGreaterThan(0);
    expect(data.events.length).toBeLessThanOrEqual(PAGE);
    if (data.hasMore) expect(data.events.length).toBe(PAGE);
    events.push(...data.events);
    last = (data.events[data.events.length - 1] as StoredEvent).eventId;
    if (!data.hasMore) break;
    if (pages > 100) throw new Error('paging does not terminate');
  }
  return { events, pages, last };
}

describe('GET /customerapi/events: paging 10,000 events with hasMore', () => {
  it('alluser sees every eventId exactly once, ascending, without gaps', async () => {
    const { events, pages, last } = await pageThrough(TOKENS.alluser);
    expect(pages).toBe(TOTAL / PAGE);
    expect(events).toHaveLength(TOTAL);
    const range = Array.from({ length: TOTAL }, (_, index) => index + 1);
    expect(events.map((e) => e.eventId)).toEqual(range);
    expect(events.map((e) => e.channel)).toEqual(range.map((id) => published.get(id)));
    expect(events.map((e) => (e.payload as { i: number }).i)).toEqual(range.map((id) => id - 1));
    expect(last).toBe(TOTAL);

    // Nothing after the last page: the next poll is held and times out.
    const after = await get(s.base, `${EVENTS_PATH}?lastEventId=${last}&limit=${PAGE}`, TOKENS.alluser);
    expect(after.status).toBe(204);
  });

  it('the default user sees exactly the events of its subscription, once each, ascending', async () => {
    const expected = [...published.entries()]
      .filter(([, channel]) => DEFAULT_DURABLE.has(channel))
      .map(([eventId]) => eventId);
    expect(expected).toHaveLength(TOTAL / 2);

    const { events, pages } = await pageThrough(TOKENS.testuser);
    expect(pages).toBe(expected.length / PAGE);
    const got = events.map((e) => e.eventId);
    expect(got).toEqual(expected);
    expect(new Set(got).size).toBe(got.length);
    expect(events.filter((e) => !DEFAULT_DURABLE.has(e.channel))).toEqual([]);
  });

  it('the two users see different sets', async () => {
    const all = await get(s.base, `${EVENTS_PATH}?lastEventId=0&limit=${PAGE}`, TOKENS.alluser);
    const dflt = await get(s.base, `${EVENTS_PATH}?lastEventId=0&limit=${PAGE}`, TOKENS.testuser);
    const allIds = all.body.data?.events.map((e) => e.eventId) ?? [];
    const dfltIds = dflt.body.data?.events.map((e) => e.eventId) ?? [];
    expect(allIds.slice(0, 8)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    // RaceDayTrot, RaceDayGallop, StartListTrot, ResultTrot per cycle of eight channels.
    expect(dfltIds.slice(0, 8)).toEqual([1, 2, 3, 5, 9, 10, 11, 13]);
    expect(dfltIds[PAGE - 1]).toBeGreaterThan(allIds[PAGE - 1] as number);
  });
});
