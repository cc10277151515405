import WebSocket from 'ws';
import { AUTH, RawStomp, closeAll, post, startSim } from './support';

afterEach(closeAll);

interface SandboxInfo {
  id: string;
  basePath: string;
  users: Array<{ key: string; secret: string; token: string; channels: string[] }>;
}

async function createSandbox(base: string): Promise<SandboxInfo> {
  const res = await fetch(`${base}/_sim/sandboxes`, { method: 'POST' });
  expect(res.status).toBe(201);
  return (await res.json()) as SandboxInfo;
}

describe('legacy simulator sandboxes', () => {
  test('queues, listen and injection are the sandbox’s own under its base path', async () => {
    const s = await startSim({ longPollTimeoutMs: 50 });
    const box = await createSandbox(s.base);
    const boxBase = s.base + box.basePath;
    const token = box.users[0]?.token ?? '';
    expect(box.users.map((u) => u.key)).toEqual(['testuser']);

    const injected = await post(boxBase, '/customerapi/channel/id/Durable?payloadKey=inbox', '<a>1</a>');
    expect(injected.status).toBe(200);
    // The default simulator's queue is empty; the sandbox's holds the message for its user.
    expect((await fetch(`${s.base}/customerapi/channels/listen`, { headers: AUTH })).status).toBe(204);
    expect((await fetch(`${boxBase}/customerapi/channels/listen`, { headers: AUTH })).status).toBe(401);
    const listen = await fetch(`${boxBase}/customerapi/channels/listen`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(listen.status).toBe(200);
    expect(await listen.text()).toContain('<a>1</a>');
    const state = (await (await fetch(`${boxBase}/_sim/state`)).json()) as { simulator: string };
    expect(state.simulator).toBe('legacy');
  });

  test('STOMP under the base path gets the sandbox’s NonDurable messages only', async () => {
    const s = await startSim();
    const box = await createSandbox(s.base);
    const token = box.users[0]?.token ?? '';
    const inBox = new RawStomp(s.ws(`${box.basePath}/api/v1/channels/connect`), {
      authorization: `Bearer ${token}`,
    });
    await inBox.opened;
    inBox.send('CONNECT\naccept-version:1.2\nheart-beat:0,0\n\n\0');
    expect((await inBox.next()).command).toBe('CONNECTED');
    inBox.send('SUBSCRIBE\nid:1\ndestination:/user/topic/publish\nreceipt:r\n\n\0');
    expect((await inBox.next()).command).toBe('RECEIPT');
    const inParent = await RawStomp.connect(s.ws());
    inParent.send('SUBSCRIBE\nid:1\ndestination:/user/topic/publish\nreceipt:r\n\n\0');
    expect((await inParent.next()).command).toBe('RECEIPT');

    await post(s.base, '/customerapi/channel/id/NonDurable?payloadKey=parent', '<p/>');
    await post(s.base + box.basePath, '/customerapi/channel/id/NonDurable?payloadKey=box', '<b/>');
    expect((await inBox.next()).body.toString()).toContain('<b/>');
    expect((await inParent.next()).body.toString()).toContain('<p/>');

    // A STOMP upgrade to a sandbox that does not exist is refused with 404, not left hanging.
    const missing = new WebSocket(s.ws('/sandboxes/00000000/api/v1/channels/connect'), { headers: AUTH });
    const status = await new Promise<number>((resolve) => {
      missing.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      missing.once('error', () => resolve(-1));
    });
    expect(status).toBe(404);
  });
});
