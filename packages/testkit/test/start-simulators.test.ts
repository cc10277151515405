import net from 'node:net';
import { ControlClient, startSimulators } from 'racedata-sim';
import { RACEDATA_SIM_VERSION } from '../src/version';
import { TOKEN, closeAll, eventually, get, started } from './support';

afterEach(closeAll);

const LOOPBACK_URL = /^http:\/\/127\.0\.0\.1:(\d+)$/;

function portOf(url: string): number {
  return Number(LOOPBACK_URL.exec(url)?.[1]);
}

/** Resolves with the error code of a TCP connect to the port (ECONNREFUSED once nothing listens). */
function connectError(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
  });
}

const XML = '<race id="1"/>';

describe('startSimulators', () => {
  test('starts both simulators on free loopback ports; each answers /health as its kind', async () => {
    const sims = await started();
    expect(sims.jsonUrl).toMatch(LOOPBACK_URL);
    expect(sims.legacyUrl).toMatch(LOOPBACK_URL);
    expect(portOf(sims.jsonUrl)).not.toBe(portOf(sims.legacyUrl));
    expect(JSON.parse((await get(`${sims.jsonUrl}/health`)).text)).toMatchObject({
      status: 'ok',
      simulator: 'json',
      version: RACEDATA_SIM_VERSION,
    });
    expect(JSON.parse((await get(`${sims.legacyUrl}/health`)).text)).toMatchObject({
      status: 'ok',
      simulator: 'legacy',
      version: RACEDATA_SIM_VERSION,
    });
    expect(sims.json.baseUrl).toBe(sims.jsonUrl);
    expect(sims.legacy.baseUrl).toBe(sims.legacyUrl);
    // Both running: `control` addresses both, and its halves are the per-simulator clients.
    expect(sims.control.json).toBe(sims.json);
    expect(sims.control.legacy).toBe(sims.legacy);
    const states = await sims.control.state();
    expect([states.json.simulator, states.legacy.simulator]).toEqual(['json', 'legacy']);
  });

  test('two instances in one process share nothing: messages, journal and faults stay in their own', async () => {
    const a = await started();
    const b = await started();
    const ports = [a.jsonUrl, a.legacyUrl, b.jsonUrl, b.legacyUrl].map(portOf);
    expect(new Set(ports).size).toBe(4);

    await a.json.post({ channel: 'RaceDayTrot', date: '2024-05-11', payload: { only: 'a' } });
    await a.legacy.inject(XML, { payloadKey: 'only-a' });
    await a.json.addFault({ match: { transport: 'events' }, action: { type: 'status', status: 503 } });

    const [stateA, stateB] = await Promise.all([a.control.state(), b.control.state()]);
    expect(stateA.json.store?.events).toBe(1);
    expect(stateA.legacy.queues?.messages).toBe(1);
    expect(stateB.json.store?.events).toBe(0);
    expect(stateB.legacy.queues?.messages).toBe(0);
    expect((await b.json.journal()).entries).toEqual([]);
    expect((await b.legacy.journal()).entries).toEqual([]);
    expect(await b.json.faults()).toEqual([]);

    // b numbers and serves only its own events; a's fault answers a's polls only.
    const posted = await b.json.post({ channel: 'RaceDayTrot', date: '2024-05-11', payload: { only: 'b' } });
    expect(posted).toMatchObject({ delivery: 'durable', event: { eventId: 1 } });
    const pageB = await get(`${b.jsonUrl}/customerapi/events?lastEventId=0`);
    expect(pageB.status).toBe(200);
    const events = (JSON.parse(pageB.text) as { data: { events: Array<{ payload: unknown }> } }).data.events;
    expect(events.map((e) => e.payload)).toEqual([{ only: 'b' }]);
    expect((await get(`${a.jsonUrl}/customerapi/events?lastEventId=0`)).status).toBe(503);
  });

  test('close() answers held polls, frees both ports (connections refused) and may be called again', async () => {
    const sims = await startSimulators();
    const heldJson = get(`${sims.jsonUrl}/customerapi/events?lastEventId=0`);
    const heldLegacy = get(`${sims.legacyUrl}/customerapi/channels/listen`);
    // Both polls are held before the close, so it is close() that answers them.
    await eventually(async () => (await sims.json.state()).users.testuser?.heldPolls === 1, 'held json poll');
    await eventually(async () => (await sims.legacy.state()).users.testuser?.heldPolls === 1, 'held listen');

    await sims.close();
    expect((await heldJson).status).toBe(204);
    expect((await heldLegacy).status).toBe(204);
    expect(await connectError(portOf(sims.jsonUrl))).toBe('ECONNREFUSED');
    expect(await connectError(portOf(sims.legacyUrl))).toBe('ECONNREFUSED');
    await expect(sims.close()).resolves.toBeUndefined();
  });

  test('json: false starts only the legacy simulator, and control is its client', async () => {
    const sims = await started({ json: false });
    // The types follow the flags: these assignments compile only for a literal `json: false`.
    const nothing: undefined = sims.jsonUrl;
    const control: ControlClient = sims.control;
    expect(nothing).toBeUndefined();
    expect(control.baseUrl).toBe(sims.legacyUrl);
    expect(sims.json).toBeUndefined();
    expect(sims.legacyUrl).toMatch(LOOPBACK_URL);
    expect(sims.control).toBeInstanceOf(ControlClient);
    expect(sims.control).toBe(sims.legacy);
    expect((await sims.control.state()).simulator).toBe('legacy');
  });

  test('settings reach the simulators: shared ones both, a simulator’s own only it; the clients carry the control token', async () => {
    const sims = await started({
      settings: { controlToken: 'shh', longPollTimeoutMs: 60_000 },
      legacy: { longPollTimeoutMs: 100 },
    });
    // The clients send the token; a request without it is refused by both.
    await expect(sims.control.state()).resolves.toMatchObject({ json: { simulator: 'json' } });
    expect((await get(`${sims.jsonUrl}/_sim/state`, undefined)).status).toBe(401);
    expect((await get(`${sims.legacyUrl}/_sim/state`, undefined)).status).toBe(401);
    // The legacy simulator's own long-poll timeout (100 ms) answers its empty listen, while the
    // JSON simulator's poll, started first, is still held under the shared 60 s.
    const jsonPoll = get(`${sims.jsonUrl}/customerapi/events?lastEventId=0`);
    await eventually(async () => (await sims.json.state()).users.testuser?.heldPolls === 1, 'held json poll');
    expect((await get(`${sims.legacyUrl}/customerapi/channels/listen`, TOKEN)).status).toBe(204);
    expect((await sims.json.state()).users.testuser?.heldPolls).toBe(1);
    await sims.close();
    expect((await jsonPoll).status).toBe(204);
  });

  test('replay replays the bundled recordings into both simulators', async () => {
    const sims = await started({ replay: { intervalMs: 5, initialDelayMs: 0 } });
    const json = await sims.json.waitFor({ kind: 'received' }, { count: 3, timeout: 5_000 });
    const legacy = await sims.legacy.waitFor({ kind: 'received' }, { count: 3, timeout: 5_000 });
    for (const entry of [...json.entries, ...legacy.entries])
      expect(entry).toMatchObject({ source: 'replay' });
    const states = await sims.control.state();
    expect(states.json.replay).toMatchObject({ on: true, mode: 'interval' });
    expect(states.legacy.replay).toMatchObject({ on: true, mode: 'interval' });
  });

  test('a start that cannot build a simulator rejects with the loader’s error; both false is a TypeError', async () => {
    await expect(startSimulators({ legacy: { usersFile: '/nonexistent/users.json' } })).rejects.toMatchObject(
      {
        code: 'USERS_INVALID',
      },
    );
    await expect(startSimulators({ json: false, legacy: false })).rejects.toThrow(TypeError);
  });
});
