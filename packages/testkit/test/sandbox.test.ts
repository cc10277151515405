import { ControlClient } from 'racedata-sim';
import { closeAll, fakeServer, get, sendJson, started } from './support';

afterEach(closeAll);

const USERS = [
  { key: 'testuser', secret: 'testpassword', token: 'sandbox-token', channels: ['RaceDayTrot'] },
];

/** A server that speaks POST/DELETE /_sim/sandboxes as documented, and records every request. */
async function sandboxServer(deleteStatus = 200) {
  const seen: string[] = [];
  const bodies: unknown[] = [];
  const base = await fakeServer((req, res, body) => {
    seen.push(`${req.method} ${req.url} ${req.headers.authorization ?? '-'}`);
    if (req.method === 'POST' && req.url === '/_sim/sandboxes') {
      bodies.push(body === '' ? undefined : JSON.parse(body));
      sendJson(res, 201, { id: 'ab12', basePath: '/sandboxes/ab12', users: USERS, createdAt: 'x' });
    } else if (req.method === 'DELETE') {
      sendJson(
        res,
        deleteStatus,
        deleteStatus === 200
          ? { deleted: 'ab12' }
          : { status: 'fail', code: 'NOT_FOUND', message: 'no sandbox "ab12"' },
      );
    } else {
      sendJson(res, 200, { simulator: 'json' });
    }
  });
  return { base, seen, bodies };
}

describe('ControlClient.sandbox(): the handle', () => {
  test('creates the sandbox with the options, binds a client to its base path, and frees it once', async () => {
    const { base, seen, bodies } = await sandboxServer();
    const parent = new ControlClient(base, { token: 'ct' });
    const sandbox = await parent.sandbox({ replay: { intervalMs: 500 }, longPollTimeoutMs: 2000 });
    expect(bodies).toEqual([{ replay: { intervalMs: 500 }, longPollTimeoutMs: 2000 }]);
    expect(sandbox).toMatchObject({
      id: 'ab12',
      basePath: '/sandboxes/ab12',
      url: `${base}/sandboxes/ab12`,
      users: USERS,
    });
    expect(sandbox.control).toBeInstanceOf(ControlClient);
    expect(sandbox.control.baseUrl).toBe(sandbox.url);
    await sandbox.control.state();
    await Promise.all([sandbox.close(), sandbox.close()]);
    await sandbox.close();
    expect(seen).toEqual([
      'POST /_sim/sandboxes Bearer ct',
      'GET /sandboxes/ab12/_sim/state Bearer ct',
      'DELETE /_sim/sandboxes/ab12 Bearer ct',
    ]);
  });

  test('close() of a sandbox the simulator already freed (idle) resolves', async () => {
    const { base } = await sandboxServer(404);
    const sandbox = await new ControlClient(base).sandbox();
    await expect(sandbox.close()).resolves.toBeUndefined();
  });

  test('a simulator without sandboxes (off, or inside one) answers 404: a ControlError with its message', async () => {
    const base = await fakeServer((_req, res) =>
      sendJson(res, 404, { status: 'fail', code: 'NOT_FOUND', message: 'sandboxes are off (SANDBOX_MAX=0)' }),
    );
    await expect(new ControlClient(base).sandbox()).rejects.toMatchObject({
      name: 'ControlError',
      status: 404,
      code: 'NOT_FOUND',
      message: 'sandboxes are off (SANDBOX_MAX=0)',
    });
  });
});

describe('ControlClient.sandbox() against the simulators', () => {
  test('a JSON sandbox is isolated from its parent and from another sandbox', async () => {
    const { json, jsonUrl } = await started({ legacy: false });
    const one = await json.sandbox();
    const two = await json.sandbox();
    expect(one.url).toBe(`${jsonUrl}${one.basePath}`);
    expect(one.id).not.toBe(two.id);

    await one.control.post({ channel: 'RaceDayTrot', date: '2024-05-11', payload: { in: 'one' } });
    expect((await one.control.state()).store?.events).toBe(1);
    expect((await two.control.state()).store?.events).toBe(0);
    expect((await json.state()).store?.events).toBe(0);
    expect((await two.control.journal()).entries).toEqual([]);

    // The sandbox's users have tokens of their own, valid only under its base path.
    const token = one.users.find((u) => u.key === 'testuser')?.token ?? '';
    const page = await get(`${one.url}/customerapi/events?lastEventId=0`, token);
    expect(page.status).toBe(200);
    expect(JSON.parse(page.text)).toMatchObject({ data: { events: [{ payload: { in: 'one' } }] } });
    expect((await get(`${two.url}/customerapi/events?lastEventId=0`, token)).status).toBe(401);
    await one.control.waitFor({ kind: 'delivered', user: 'testuser' }, { timeout: 2000 });

    await one.close();
    expect((await get(`${one.url}/health`)).status).toBe(404);
    await one.close();
    await two.close();
  });

  test('past SANDBOX_MAX the simulator answers 429: ControlError SANDBOX_LIMIT', async () => {
    const { json } = await started({ legacy: false, json: { sandboxMax: 1 } });
    const one = await json.sandbox();
    await expect(json.sandbox()).rejects.toMatchObject({ status: 429, code: 'SANDBOX_LIMIT' });
    await one.close();
    await (await json.sandbox()).close();
  });

  test('a legacy sandbox has its own queues, faults and clock', async () => {
    const { legacy } = await started({ json: false });
    const box = await legacy.sandbox();
    await box.control.inject('<in-box/>');
    await box.control.addFault({ match: { transport: 'listen' }, action: { type: 'status', status: 503 } });
    await box.control.advanceClock(1000);
    expect(await box.control.state()).toMatchObject({ clockOffsetMs: 1000, queues: { messages: 1 } });
    expect(await legacy.state()).toMatchObject({ clockOffsetMs: 0, queues: { messages: 0 } });
    expect(await legacy.faults()).toEqual([]);
    await box.close();
  });
});
