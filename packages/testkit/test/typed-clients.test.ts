import WebSocket from 'ws';
import { startSimulators, type JsonControlClient, type RunningSimulators } from 'racedata-sim';
import { TOKENS } from '@racedata/test-support';
import { closeAll, started } from './support';

// The types are part of what is tested here: `tsc -p tsconfig.test.json` (npm run lint) and
// ts-jest compile this file, and each @ts-expect-error line fails the compile if the call it
// marks ever compiles, i.e. if a call of one simulator could be made on the other's client.

afterEach(closeAll);

/** The first message of a WebSocket (JSON event stream: Connection; STOMP: the CONNECTED frame). */
function firstMessage(url: string, send?: string, headers: Record<string, string> = {}): Promise<string> {
  const ws = new WebSocket(url, ['v12.stomp'], { headers });
  return new Promise<string>((resolve, reject) => {
    ws.once('open', () => send !== undefined && ws.send(send));
    ws.once('message', (data: Buffer) => resolve(data.toString()));
    ws.once('error', reject);
  }).finally(() => ws.terminate());
}

describe('startSimulators: typed per simulator, users and URLs handed out', () => {
  let sims: RunningSimulators;

  beforeAll(async () => {
    sims = await startSimulators();
  });
  afterAll(() => sims.close());

  test('RunningSimulators alone is both simulators: nothing possibly undefined', async () => {
    const url: string = sims.jsonUrl;
    const client: JsonControlClient = sims.json;
    expect(client.baseUrl).toBe(url);
    expect(await sims.json.post({ channel: 'RaceDayTrot', date: '2024-05-11', payload: {} })).toMatchObject({
      delivery: 'durable',
    });
    expect(await sims.legacy.inject('<a/>')).toMatchObject({ delivery: 'durable' });
    // @ts-expect-error: POST /api/message is the JSON simulator's; the legacy one has no such route
    expect(sims.legacy.post).toBeUndefined();
    // @ts-expect-error: XML injection is the legacy simulator's
    expect(sims.json.inject).toBeUndefined();
    // @ts-expect-error: seeding (POST /_sim/events) is the JSON simulator's
    expect(sims.legacy.seed).toBeUndefined();
    await sims.control.reset();
  });

  test('each simulator’s users with key, secret, token and channels, as the simulator lists them', async () => {
    expect(sims.users.json.map((u) => u.key)).toEqual(['testuser', 'alluser']);
    expect(sims.users.legacy).toEqual([
      {
        key: 'testuser',
        name: 'default',
        secret: 'testpassword',
        token: TOKENS.testuser,
        channels: expect.any(Array),
      },
    ]);
    expect(sims.users.json).toEqual(await sims.json.users());
    expect(sims.users.legacy).toEqual(await sims.legacy.users());
    // The secret is the one authenticate takes.
    const { key, secret, token } = sims.users.json[0]!;
    const auth = await fetch(`${sims.jsonUrl}/customerapi/authenticate/subscription`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ key, secret }),
    });
    expect(auth.headers.get('authorization')).toBe(`Bearer ${token}`);
  });

  test('the WebSocket and STOMP URLs are the endpoints', async () => {
    expect(sims.eventStreamUrl).toBe(`${sims.jsonUrl.replace('http', 'ws')}/customerapi/event-stream`);
    expect(sims.stompUrl).toBe(`${sims.legacyUrl.replace('http', 'ws')}/api/v1/channels/connect`);
    expect(JSON.parse(await firstMessage(sims.eventStreamUrl))).toMatchObject({ type: 'Connection' });
    const token = sims.users.legacy[0]!.token;
    const connected = await firstMessage(sims.stompUrl, 'CONNECT\naccept-version:1.2\nhost:sim\n\n\0', {
      authorization: `Bearer ${token}`,
    });
    expect(connected).toMatch(/^CONNECTED\n/);
  });

  test('sims.sandbox(): a sandbox in each simulator, each client of its kind; close() frees both', async () => {
    const pair = await sims.sandbox();
    expect(pair.json.url).toBe(`${sims.jsonUrl}${pair.json.basePath}`);
    expect(pair.legacy.url).toBe(`${sims.legacyUrl}${pair.legacy.basePath}`);
    await pair.json.control.post({ channel: 'RaceDayTrot', date: '2024-05-11', payload: { boxed: true } });
    await pair.legacy.control.inject('<boxed/>');
    // @ts-expect-error: a legacy sandbox's client is a legacy client
    expect(pair.legacy.control.post).toBeUndefined();
    expect(pair.json.control.eventStreamUrl).toBe(
      `${pair.json.url.replace('http', 'ws')}/customerapi/event-stream`,
    );
    const [json, legacy] = await Promise.all([sims.json.sandboxes(), sims.legacy.sandboxes()]);
    expect(json.sandboxes.map((s) => s.id)).toEqual([pair.json.id]);
    expect(legacy.sandboxes.map((s) => s.id)).toEqual([pair.legacy.id]);
    expect((await sims.json.state()).store?.events).toBe(0);
    await pair.close();
    expect((await sims.json.sandboxes()).sandboxes).toEqual([]);
    expect((await sims.legacy.sandboxes()).sandboxes).toEqual([]);
  });
});

test('one simulator left out: its URLs, users and client are undefined in the types too', async () => {
  const sims = await started({ legacy: false });
  const none: undefined = sims.stompUrl;
  const noUsers: undefined = sims.users.legacy;
  expect([none, noUsers, sims.legacy]).toEqual([undefined, undefined, undefined]);
  const box = await sims.sandbox();
  await box.control.post({ channel: 'RaceDayTrot', date: '2024-05-11', payload: {} });
  await box.close();
});
