import { resolveSettings } from '@racedata/core';
import { TOKENS } from '@racedata/test-support';
import { FILTERED_PATH, MESSAGE_PATH, closeAll, get, postMessage, postRaw, startSim } from './helpers';

// EVENT_STORE_MAX_BYTES bounds the memory the durable store takes: each event counts as its
// JSON plus 200 bytes; the oldest go first, and one event larger than the budget is refused.

afterEach(closeAll);

const message = (i: number, chars: number) => ({
  channel: 'RaceDayTrot',
  date: '2026-11-22',
  payload: { i, s: 'x'.repeat(chars) },
});

describe('the byte budget of the durable store', () => {
  it('keeps the newest events within the budget, oldest dropped first', async () => {
    // About 4,100 bytes of JSON each: 4,300 bytes of budget per event, so 4 of them fit in 20,000.
    const s = await startSim({ eventStoreMaxBytes: 20_000 });
    for (let i = 1; i <= 10; i++) expect((await postMessage(s.base, message(i, 4000))).status).toBe(201);
    const page = await get(s.base, `${FILTERED_PATH}?lastEventId=0`, TOKENS.alluser);
    expect(page.status).toBe(200);
    expect(page.body.data?.events.map((e) => e.eventId)).toEqual([7, 8, 9, 10]);
    expect(s.probe.store.dropped).toBe(6);
  });

  it('refuses one event larger than the whole budget with 413, storing nothing', async () => {
    const s = await startSim({ eventStoreMaxBytes: 20_000 });
    expect((await postMessage(s.base, message(1, 10))).status).toBe(201);
    const big = await postMessage(s.base, message(2, 25_000));
    expect(big.status).toBe(413);
    expect(big.body).toEqual({
      status: 'fail',
      message: expect.stringMatching(/EVENT_STORE_MAX_BYTES is 20000/) as unknown,
    });
    const next = await postMessage(s.base, message(3, 10));
    expect(next.body.data).toMatchObject({ event: { eventId: 2 } });
    const page = await get(s.base, `${FILTERED_PATH}?lastEventId=0`, TOKENS.alluser);
    expect(page.body.data?.events.map((e) => e.eventId)).toEqual([1, 2]);
  });

  it('the default budget is 256 MiB', async () => {
    const s = await startSim();
    expect(resolveSettings('json', {}).eventStoreMaxBytes).toBe(256 * 1024 * 1024);
    const res = await postRaw(s.base, MESSAGE_PATH, JSON.stringify(message(1, 500_000)));
    expect(res.status).toBe(201);
  });
});
