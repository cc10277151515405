import { AUTH, RawStomp, closeAll, post, startSim } from './support';

afterEach(closeAll);

async function scrape(base: string): Promise<Map<string, number>> {
  const res = await fetch(`${base}/metrics`);
  expect(res.status).toBe(200);
  const samples = new Map<string, number>();
  for (const line of (await res.text()).split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const cut = line.lastIndexOf(' ');
    samples.set(line.slice(0, cut), Number(line.slice(cut + 1)));
  }
  return samples;
}

describe('legacy simulator GET /metrics', () => {
  test('counts injections, listen and STOMP deliveries, queue gauges and session closes', async () => {
    const s = await startSim();
    const peer = await RawStomp.connect(s.ws());
    peer.send('SUBSCRIBE\nid:1\ndestination:/user/topic/publish\nreceipt:r\n\n\0');
    expect((await peer.next()).command).toBe('RECEIPT');
    await post(s.base, '/customerapi/channel/id/Durable?payloadKey=a', '<a/>');
    await post(s.base, '/customerapi/channel/id/Durable?payloadKey=b', '<b/>');
    await post(s.base, '/customerapi/channel/id/NonDurable?payloadKey=c', '<c/>');
    expect((await peer.next()).command).toBe('MESSAGE');
    let m = await scrape(s.base);
    expect(m.get('racedata_messages_received_total{source="inject"}')).toBe(3);
    expect(m.get('racedata_deliveries_total{transport="stomp"}')).toBe(1);
    expect(m.get('racedata_queued_messages')).toBe(2);
    expect(m.get('racedata_queued_bytes')).toBeGreaterThan(0);
    expect(m.get('racedata_connected_sessions{transport="stomp"}')).toBe(1);
    expect(
      m.get(
        'racedata_http_requests_total{route="/customerapi/channel/{channelId}/Durable",method="POST",status="200"}',
      ),
    ).toBe(2);

    const listen = await fetch(`${s.base}/customerapi/channels/listen`, { headers: AUTH });
    expect(listen.status).toBe(200);
    await listen.text();
    await fetch(`${s.base}/_sim/connections/close`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: 4003 }),
    });
    await peer.closed;
    const wait = await fetch(`${s.base}/_sim/journal/wait?kind=closed&count=1&timeout=2000`);
    expect(wait.status).toBe(200);
    m = await scrape(s.base);
    expect(m.get('racedata_deliveries_total{transport="listen"}')).toBeGreaterThanOrEqual(1);
    expect(m.get('racedata_sessions_closed_total{transport="stomp",code="4003"}')).toBe(1);
    expect(m.get('racedata_connected_sessions{transport="stomp"}')).toBe(0);
  });
});
