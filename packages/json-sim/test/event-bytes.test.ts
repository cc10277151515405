import {
  ALL_TOKEN,
  EVENTS_PATH,
  FILTERED_PATH,
  closeAll,
  get,
  postMessage,
  postRaw,
  startSim,
} from './helpers';
import type { StoredEvent } from '../src/store/types';

// The store keeps each event's payload and writes its envelope when a page is read: posted and
// seeded events must come back byte for byte as JSON.stringify writes them, whatever their
// optional ids and characters.

afterEach(closeAll);

const messages = [
  { channel: 'RaceDayTrot', date: '2026-11-22', payload: { track: 'Åby', horse: '🐎 Järvsöfaks' } },
  { channel: 'RaceDayTrot', date: '2026-11-22', trackId: 0, payload: { quote: '"\\\n\u2028' } },
  { channel: 'StartListTrot', date: '2026-11-23', raceNr: 10, startNr: 99, payload: {} },
  { channel: 'StartListTrot', date: '2026-11-23', trackId: 2 ** 31, raceNr: null, payload: { n: 1e21 } },
  { channel: 'ResultTrot', date: '2026-11-24', trackId: 900, raceNr: 1, startNr: 9, payload: { odds: 1.2 } },
];

/** The page body a client should get for these events, as JSON.stringify writes it. */
const pageText = (events: StoredEvent[]) =>
  JSON.stringify({ status: 'success', data: { numberOfEvents: events.length, hasMore: false, events } });

describe('events read back byte for byte', () => {
  it('as posted to /api/message', async () => {
    const s = await startSim();
    const events: StoredEvent[] = [];
    for (const m of messages) {
      const res = await postMessage(s.base, m);
      expect(res.status).toBe(201);
      events.push((res.body.data as { event: StoredEvent }).event);
    }
    // null is "no raceNr": not echoed, not stored.
    expect(events[3]).not.toHaveProperty('raceNr');
    const filtered = await get(s.base, `${FILTERED_PATH}?lastEventId=0`, ALL_TOKEN);
    expect(filtered.text).toBe(pageText(events));
    const paged = await get(s.base, `${EVENTS_PATH}?lastEventId=0&limit=100`, ALL_TOKEN);
    expect(paged.text).toBe(pageText(events));
    const one = await get(s.base, `${FILTERED_PATH}?lastEventId=0&trackId=${2 ** 31}`, ALL_TOKEN);
    expect(one.text).toBe(pageText([events[3] as StoredEvent]));
  });

  it('as seeded through /_sim/events', async () => {
    const s = await startSim();
    const ndjson = messages.map((m) => JSON.stringify(m)).join('\n');
    expect((await postRaw(s.base, '/_sim/events', ndjson, 'application/x-ndjson')).status).toBe(201);
    const res = await get(s.base, `${FILTERED_PATH}?lastEventId=0`, ALL_TOKEN);
    const events = res.body.data?.events as StoredEvent[];
    expect(events.map((e) => e.eventId)).toEqual([1, 2, 3, 4, 5]);
    // Same fields in the same order as a posted event: the page is the events' JSON.stringify.
    expect(res.text).toBe(pageText(events));
    for (const [i, e] of events.entries()) {
      // A null id is no id.
      const sent = Object.fromEntries(Object.entries(messages[i] as object).filter(([, v]) => v !== null));
      expect(e).toEqual({ ...sent, created_at: e.created_at, eventId: i + 1 });
    }
  });
});
