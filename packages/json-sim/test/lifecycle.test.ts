import { createJsonSimulator } from '@racedata/json-sim';
import { TOKENS } from '@racedata/test-support';
import {
  EVENTS_PATH,
  FAST_SETTINGS,
  FILTERED_PATH,
  WsClient,
  closeAll,
  connectAuthenticated,
  event,
  get,
  postMessage,
  startSim,
  closeAfterTest,
  waitFor,
} from './helpers';

afterEach(closeAll);

describe('close()', () => {
  it('answers held polls with 204 and resolves quickly', async () => {
    const s = await startSim({ longPollTimeoutMs: 30_000 });
    const polls = [
      get(s.base, `${EVENTS_PATH}?lastEventId=0`, TOKENS.testuser),
      get(s.base, EVENTS_PATH, TOKENS.alluser),
    ];
    await waitFor(() => s.probe.polls.size === 2, 'both polls to be held');
    const started = Date.now();
    await s.sim.close();
    expect(Date.now() - started).toBeLessThan(1500);
    const results = await Promise.all(polls);
    expect(results.map((r) => r.status)).toEqual([204, 204]);
    expect(s.probe.polls.size).toBe(0);
  });

  it('closes event-stream sockets, authenticated or not, and the clients see the close', async () => {
    const s = await startSim({ wsAuthTimeoutMs: 30_000 });
    const authed = await connectAuthenticated(s.wsUrl, TOKENS.testuser);
    const waiting = await WsClient.connect(s.wsUrl);
    await waiting.next('Connection');
    const started = Date.now();
    await s.sim.close();
    expect(Date.now() - started).toBeLessThan(1500);
    const [a, b] = await Promise.all([authed.closed, waiting.closed]);
    expect(a.code).toBe(1001);
    expect(b.code).toBe(1001);
    expect(s.probe.streamSessions).toBe(0);
  });

  it('resolves quickly with held polls, sockets and idle keep-alive connections all at once', async () => {
    const s = await startSim({ longPollTimeoutMs: 30_000, wsAuthTimeoutMs: 30_000 });
    expect((await get(s.base, '/health')).status).toBe(200); // leaves a keep-alive connection
    const poll = get(s.base, `${EVENTS_PATH}?lastEventId=0`, TOKENS.testuser);
    const client = await connectAuthenticated(s.wsUrl, TOKENS.alluser);
    await waitFor(() => s.probe.polls.size === 1, 'the poll to be held');
    const started = Date.now();
    await s.sim.close();
    expect(Date.now() - started).toBeLessThan(1500);
    expect((await poll).status).toBe(204);
    expect((await client.closed).code).toBe(1001);
    expect(s.sim.server.listening).toBe(false);
  });

  it('stops listening: new connections are refused', async () => {
    const s = await startSim();
    await s.sim.close();
    await expect(fetch(`${s.base}/health`)).rejects.toThrow();
  });

  it('is idempotent and works before listen', async () => {
    const s = await startSim();
    await Promise.all([s.sim.close(), s.sim.close()]);
    await s.sim.close();
    const never = closeAfterTest(createJsonSimulator(FAST_SETTINGS));
    await never.close();
    expect(never.server.listening).toBe(false);
  });

  it('runs onClose tasks', async () => {
    const s = await startSim();
    const ran: string[] = [];
    s.sim.onClose(() => {
      ran.push('sync');
    });
    s.sim.onClose(async () => {
      ran.push('async');
    });
    await s.sim.close();
    expect(ran).toEqual(['sync', 'async']);
  });
});

describe('several simulators', () => {
  it('listen twice on port 0 gives independent simulators', async () => {
    const a = await startSim();
    const b = await startSim();
    expect(a.address.port).not.toBe(b.address.port);
    expect(a.address.port).toBeGreaterThan(0);

    expect(
      (await postMessage(a.base, { channel: 'RaceDayTrot', date: '2026-01-05', payload: { at: 'a' } }))
        .status,
    ).toBe(201);
    expect(
      (await postMessage(b.base, { channel: 'ResultTrot', date: '2026-01-05', payload: { at: 'b' } })).status,
    ).toBe(201);
    const fromA = await get(a.base, FILTERED_PATH, TOKENS.testuser);
    const fromB = await get(b.base, FILTERED_PATH, TOKENS.testuser);
    expect(fromA.body.data?.events.map((e) => e.payload)).toEqual([{ at: 'a' }]);
    expect(fromB.body.data?.events.map((e) => e.payload)).toEqual([{ at: 'b' }]);
    expect(fromA.body.data?.events[0]?.eventId).toBe(1);
    expect(fromB.body.data?.events[0]?.eventId).toBe(1);

    // A stream on one does not see the other's transient messages.
    const wsA = await connectAuthenticated(a.wsUrl, TOKENS.alluser);
    expect((await postMessage(b.base, event('TimeToStartTrot'))).body.data).toEqual({
      delivery: 'transient',
      recipients: 0,
    });
    a.probe.publish(event('TimeToStartTrot', { payload: { own: true } }));
    expect((await wsA.next()).data?.payload).toEqual({ own: true });

    // Closing one leaves the other serving.
    await a.sim.close();
    expect((await get(b.base, '/health')).status).toBe(200);
  });
});
