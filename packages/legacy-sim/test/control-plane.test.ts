import { AUTH, closeAll, post, startSim } from './support';

afterEach(closeAll);

const control = (base: string, path: string, init: RequestInit = {}) => fetch(`${base}/_sim/${path}`, init);
const postControl = (base: string, path: string, body: unknown) =>
  control(base, path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

interface State {
  simulator: string;
  users: Record<string, { sockets: number; heldPolls: number; queueDepth: number }>;
  queues: { messages: number };
}

describe('legacy simulator control plane', () => {
  test('state shows queue depth; a clock advanced 25 h drops the queued message', async () => {
    const s = await startSim();
    expect((await post(s.base, '/customerapi/channel/id/Durable?payloadKey=k1', '<a/>')).status).toBe(200);
    const before = (await (await control(s.base, 'state')).json()) as State;
    expect(before.simulator).toBe('legacy');
    expect(before.users.testuser).toEqual({ sockets: 0, heldPolls: 0, queueDepth: 1, unconfirmed: 0 });
    expect((await postControl(s.base, 'clock/advance', { ms: 25 * 3_600_000 })).status).toBe(200);
    const after = (await (await control(s.base, 'state')).json()) as State;
    expect(after.users.testuser?.queueDepth).toBe(0);
  });

  test('the journal records the injection and the listen delivery; reset clears the queues', async () => {
    const s = await startSim();
    await post(s.base, '/customerapi/channel/id/Durable?payloadKey=k1', '<a/>');
    const listen = await fetch(`${s.base}/customerapi/channels/listen`, { headers: AUTH });
    expect(listen.status).toBe(200);
    await listen.text();
    const page = (await (
      await control(s.base, 'journal/wait?transport=listen&count=1&timeout=1000')
    ).json()) as {
      entries: unknown[];
    };
    expect(page).toMatchObject({ nextSince: 2 });
    expect(page.entries).toEqual([
      expect.objectContaining({
        kind: 'delivered',
        user: 'testuser',
        transport: 'listen',
        payloadKey: 'k1',
        status: 200,
      }),
    ]);
    const all = (await (await control(s.base, 'journal')).json()) as { entries: unknown[] };
    expect(all.entries[0]).toMatchObject({
      kind: 'received',
      source: 'inject',
      channel: 'id',
      durable: true,
      payloadKey: 'k1',
    });

    await post(s.base, '/customerapi/channel/id/Durable', '<b/>');
    const reset = await postControl(s.base, 'reset', {});
    expect(reset.status).toBe(200);
    const body = (await reset.json()) as { cleared: Record<string, number> };
    expect(body.cleared.queuedMessages).toBeGreaterThan(0);
    expect(body.cleared.journalEntries).toBe(3);
  });
});
