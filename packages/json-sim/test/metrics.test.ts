import { TOKENS } from '@racedata/test-support';
import { EVENTS_PATH, closeAll, connectAuthenticated, event, get, postMessage, startSim } from './helpers';

afterEach(closeAll);

/** The samples of a Prometheus text exposition, by `name{labels}` as written. */
async function scrape(base: string, headers: Record<string, string> = {}): Promise<Map<string, number>> {
  const res = await fetch(`${base}/metrics`, { headers });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/plain');
  const samples = new Map<string, number>();
  for (const line of (await res.text()).split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const cut = line.lastIndexOf(' ');
    samples.set(line.slice(0, cut), Number(line.slice(cut + 1)));
  }
  return samples;
}

describe('JSON simulator GET /metrics', () => {
  test('counts a post, a poll and a WebSocket delivery; gauges read on scrape', async () => {
    const s = await startSim();
    const client = await connectAuthenticated(s.wsUrl, TOKENS.testuser);
    expect((await postMessage(s.base, event('RaceDayTrot'))).status).toBe(201);
    expect((await postMessage(s.base, event('TimeToStartTrot'))).status).toBe(202);
    await client.next();
    expect((await get(s.base, `${EVENTS_PATH}?lastEventId=0`, TOKENS.testuser)).status).toBe(200);
    await fetch(`${s.base}/no/such/path/12345`);
    const m = await scrape(s.base);
    expect(m.get('racedata_messages_received_total{source="post"}')).toBe(2);
    expect(m.get('racedata_deliveries_total{transport="event-stream"}')).toBe(1);
    expect(m.get('racedata_deliveries_total{transport="events"}')).toBe(1);
    expect(m.get('racedata_http_requests_total{route="/api/message",method="POST",status="201"}')).toBe(1);
    // The fast read path answered this one.
    expect(m.get('racedata_http_requests_total{route="/customerapi/events",method="GET",status="200"}')).toBe(
      1,
    );
    expect(m.get('racedata_http_requests_total{route="other",method="GET",status="404"}')).toBe(1);
    expect(m.get('racedata_http_request_duration_seconds_count{route="/api/message",method="POST"}')).toBe(2);
    expect(m.get('racedata_connected_sessions{transport="event-stream"}')).toBe(1);
    expect(m.get('racedata_stored_events')).toBe(1);
    expect(m.get('racedata_stored_event_bytes')).toBeGreaterThan(0);
    expect(m.get('racedata_held_polls')).toBe(0);
    expect(m.get('racedata_dropped_messages_total')).toBe(0);
    expect(m.has('nodejs_heap_size_used_bytes')).toBe(true);
    expect(m.has('nodejs_eventloop_lag_seconds')).toBe(true);
    // The scrape itself is counted once it is answered.
    expect(
      (await scrape(s.base)).get('racedata_http_requests_total{route="/metrics",method="GET",status="200"}'),
    ).toBe(1);
  });

  test('two simulators in one process count independently', async () => {
    const a = await startSim();
    const b = await startSim();
    await postMessage(a.base, event('RaceDayTrot'));
    await postMessage(a.base, event('RaceDayTrot'));
    await postMessage(b.base, event('RaceDayTrot'));
    expect((await scrape(a.base)).get('racedata_messages_received_total{source="post"}')).toBe(2);
    expect((await scrape(b.base)).get('racedata_messages_received_total{source="post"}')).toBe(1);
  });

  test('store drops are counted', async () => {
    const s = await startSim({ eventStoreMax: 1 });
    await postMessage(s.base, event('RaceDayTrot'));
    await postMessage(s.base, event('RaceDayTrot'));
    expect((await scrape(s.base)).get('racedata_dropped_messages_total')).toBe(1);
  });

  test('CONTROL_API=off answers 404', async () => {
    const s = await startSim({ controlApi: 'off' });
    expect((await fetch(`${s.base}/metrics`)).status).toBe(404);
  });

  test('CONTROL_TOKEN: 401 without the bearer, 200 with it', async () => {
    const s = await startSim({ controlToken: 'sekrit' });
    const res = await fetch(`${s.base}/metrics`);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: 'CONTROL_UNAUTHORIZED' });
    const m = await scrape(s.base, { authorization: 'Bearer sekrit' });
    expect(m.get('racedata_http_requests_total{route="/metrics",method="GET",status="401"}')).toBe(1);
  });
});
