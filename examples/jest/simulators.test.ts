import { startSimulators, type RunningSimulators } from 'racedata-sim';
import WebSocket from 'ws'; // npm install -D ws

let sims: RunningSimulators;

beforeAll(async () => {
  sims = await startSimulators({ settings: { longPollTimeoutMs: 2000 } });
});
afterAll(() => sims.close()); // answers held polls, closes sockets, frees the ports
beforeEach(() => sims.control.reset()); // both simulators: events, queues, journal, faults

test('a posted event reaches a long poll of the JSON simulator', async () => {
  const { token } = sims.users.json[0]!; // testuser: key, secret, token, channels
  await sims.json.post({ channel: 'RaceDayTrot', date: '2024-05-11', payload: { raceNr: 1 } });

  // The code under test would do this, pointed at sims.jsonUrl:
  const res = await fetch(`${sims.jsonUrl}/customerapi/events?lastEventId=0`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.status).toBe(200);
  await sims.json.waitFor({ kind: 'delivered', user: 'testuser' }, { timeout: 5000 });
});

test('a transient message reaches an event-stream consumer', async () => {
  const { token } = sims.users.json[0]!;
  const ws = new WebSocket(sims.eventStreamUrl);
  try {
    const authenticated = new Promise<void>((resolve) =>
      ws.on('message', (m) => String(m).includes('"Authenticated"') && resolve()),
    );
    const data = new Promise<Record<string, unknown>>((resolve) =>
      ws.on('message', (m) => {
        const message = JSON.parse(String(m)) as { type: string; data: Record<string, unknown> };
        if (message.type === 'Data') resolve(message.data);
      }),
    );
    ws.on('open', () => ws.send(token)); // the token is the first message
    await authenticated; // transient messages reach only sessions open when they are sent
    await sims.json.post({
      channel: 'TimeToStartTrot',
      date: '2024-05-11',
      raceNr: 1,
      payload: { seconds: 60 },
    });
    await sims.json.waitFor(
      { kind: 'delivered', transport: 'event-stream', user: 'testuser' },
      { timeout: 5000 },
    );
    expect(await data).toMatchObject({ channel: 'TimeToStartTrot', payload: { seconds: 60 } });
  } finally {
    ws.close();
  }
});

test('an injected XML message reaches the legacy listen loop', async () => {
  const { token } = sims.users.legacy[0]!;
  await sims.legacy.inject('<race id="1"/>', { payloadKey: 'race-1' });

  const res = await fetch(`${sims.legacyUrl}/customerapi/channels/listen`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(await res.json()).toBe('<race id="1"/>');
});

test('a fault that fires once: the first poll gets 503, the retry gets through', async () => {
  const { token } = sims.users.json[0]!;
  await sims.json.addFault({
    match: { transport: 'events' },
    action: { type: 'status', status: 503 },
    times: 1,
  });
  await sims.json.post({ channel: 'RaceDayTrot', date: '2024-05-11', payload: {} });
  const poll = () =>
    fetch(`${sims.jsonUrl}/customerapi/events?lastEventId=0`, {
      headers: { authorization: `Bearer ${token}` },
    });

  expect((await poll()).status).toBe(503);
  expect((await poll()).status).toBe(200);
  expect(await sims.json.faults()).toEqual([]); // spent: removeFault(id) would now answer false
});

test('a sandbox of each simulator, isolated from the others', async () => {
  const box = await sims.sandbox(); // box.json.url, box.legacy.url, each with its own users
  try {
    await box.json.control.post({ channel: 'RaceDayTrot', date: '2024-05-11', payload: {} });
    expect((await box.json.control.state()).store?.events).toBe(1);
    expect((await sims.json.state()).store?.events).toBe(0);
  } finally {
    await box.close();
  }
});
