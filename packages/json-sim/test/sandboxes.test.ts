import fc from 'fast-check';
import { ManualClock } from '@racedata/core';
import { TOKENS } from '@racedata/test-support';
import {
  EVENTS_PATH,
  closeAll,
  connectAuthenticated,
  event,
  get,
  postJson,
  startSim,
  type EventPageBody,
} from './helpers';

afterEach(closeAll);

interface SandboxUser {
  key: string;
  secret: string;
  token: string;
  channels: string[];
}

interface SandboxInfo {
  id: string;
  basePath: string;
  users: SandboxUser[];
}

const JSON_TYPE = { 'content-type': 'application/json' };

async function createSandbox(base: string, body?: unknown): Promise<SandboxInfo> {
  const res = await fetch(`${base}/_sim/sandboxes`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const info = (await res.json()) as SandboxInfo;
  if (res.status !== 201) throw new Error(`sandbox refused: ${res.status} ${JSON.stringify(info)}`);
  return info;
}

const tokenOf = (sandbox: SandboxInfo, key = 'testuser') =>
  sandbox.users.find((u) => u.key === key)?.token ?? '';

async function eventIds(base: string, token: string): Promise<number[]> {
  const page = await get<EventPageBody>(base, `${EVENTS_PATH}?lastEventId=0&limit=1000`, token);
  if (page.status === 204) return [];
  return (page.body.data?.events ?? []).map((e) => e.payload.n as number);
}

describe('JSON simulator sandboxes', () => {
  test('a sandbox has its own users, tokens, store and eventIds under its base path', async () => {
    const s = await startSim();
    const box = await createSandbox(s.base);
    expect(box).toMatchObject({
      id: expect.stringMatching(/^[0-9a-f]{8}$/),
      basePath: `/sandboxes/${box.id}`,
    });
    expect(box.users.map((u) => u.key)).toEqual(['testuser', 'alluser']);
    expect(tokenOf(box)).not.toBe(TOKENS.testuser);
    const boxBase = s.base + box.basePath;

    const inBox = await postJson<{ data: { event: { eventId: number } } }>(
      boxBase,
      '/api/message',
      event('RaceDayTrot', { payload: { n: 1 } }),
    );
    expect(inBox.status).toBe(201);
    expect(inBox.body.data.event.eventId).toBe(1);
    const inParent = await postJson<{ data: { event: { eventId: number } } }>(
      s.base,
      '/api/message',
      event('RaceDayTrot', { payload: { n: 2 } }),
    );
    expect(inParent.body.data.event.eventId).toBe(1);

    expect(await eventIds(boxBase, tokenOf(box))).toEqual([1]);
    expect(await eventIds(s.base, TOKENS.testuser)).toEqual([2]);
    // A token opens only its own simulator.
    expect((await get(boxBase, `${EVENTS_PATH}?lastEventId=0`, TOKENS.testuser)).status).toBe(401);
    expect((await get(s.base, `${EVENTS_PATH}?lastEventId=0`, tokenOf(box))).status).toBe(401);
    // The sandbox's users authenticate with the same key and secret and get its token.
    const auth = await postJson(boxBase, '/customerapi/authenticate/subscription', {
      key: 'testuser',
      secret: 'testpassword',
    });
    expect(auth.headers.get('authorization')).toBe(`Bearer ${tokenOf(box)}`);
  });

  test('the event stream, the journal, faults and the clock work under the base path, isolated', async () => {
    const s = await startSim();
    const box = await createSandbox(s.base);
    const boxBase = s.base + box.basePath;
    const boxWs = s.wsUrl.replace('/customerapi/', `${box.basePath}/customerapi/`);
    const inBox = await connectAuthenticated(boxWs, tokenOf(box));
    const inParent = await connectAuthenticated(s.wsUrl, TOKENS.testuser);

    await postJson(boxBase, '/api/message', event('TimeToStartTrot', { payload: { n: 1 } }));
    await postJson(s.base, '/api/message', event('TimeToStartTrot', { payload: { n: 2 } }));
    expect((await inBox.next()).data?.payload).toEqual({ n: 1 });
    expect((await inParent.next()).data?.payload).toEqual({ n: 2 });

    const journal = (await (await fetch(`${boxBase}/_sim/journal`)).json()) as { entries: unknown[] };
    expect(journal.entries).toHaveLength(2); // received + delivered, both of the sandbox
    const state = (await (await fetch(`${boxBase}/_sim/state`)).json()) as {
      users: Record<string, { sockets: number }>;
    };
    expect(state.users.testuser?.sockets).toBe(1);

    await fetch(`${boxBase}/_sim/faults`, {
      method: 'POST',
      headers: JSON_TYPE,
      body: JSON.stringify({ match: { transport: 'events' }, action: { type: 'status', status: 503 } }),
    });
    expect((await get(boxBase, `${EVENTS_PATH}?lastEventId=0`, tokenOf(box))).status).toBe(503);
    expect((await get(s.base, `${EVENTS_PATH}?lastEventId=0`, TOKENS.testuser)).status).toBe(204);

    const advanced = await fetch(`${boxBase}/_sim/clock/advance`, {
      method: 'POST',
      headers: JSON_TYPE,
      body: JSON.stringify({ ms: 3_600_000 }),
    });
    expect(advanced.status).toBe(200);
    const parentState = (await (await fetch(`${s.base}/_sim/state`)).json()) as { clockOffsetMs: number };
    expect(parentState.clockOffsetMs).toBe(0);
  });

  test('DELETE closes its sessions and held polls and frees it; its paths then answer 404', async () => {
    const s = await startSim({ longPollTimeoutMs: 60_000 });
    const box = await createSandbox(s.base);
    const boxBase = s.base + box.basePath;
    const client = await connectAuthenticated(
      s.wsUrl.replace('/customerapi/', `${box.basePath}/customerapi/`),
      tokenOf(box),
    );
    const poll = get(boxBase, `${EVENTS_PATH}?lastEventId=0`, tokenOf(box));
    const wait = await fetch(`${boxBase}/_sim/journal/wait?kind=closed&count=1&timeout=10`);
    expect(wait.status).toBe(408); // nothing closed yet; also proves the sandbox answers
    const deleted = await fetch(`${s.base}/_sim/sandboxes/${box.id}`, { method: 'DELETE' });
    expect(await deleted.json()).toEqual({ deleted: box.id });
    expect((await client.closed).code).toBe(1001);
    expect((await poll).status).toBe(204);
    const gone = await fetch(`${boxBase}/customerapi/events?lastEventId=0`);
    expect(gone.status).toBe(404);
    expect(((await gone.json()) as { message: string }).message).toContain(box.id);
    expect((await fetch(`${s.base}/_sim/sandboxes/${box.id}`, { method: 'DELETE' })).status).toBe(404);
    expect(await (await fetch(`${s.base}/_sim/sandboxes`)).json()).toEqual({ max: 100, sandboxes: [] });
  });

  test('at most SANDBOX_MAX exist: one more is 429; sandboxes do not nest', async () => {
    const s = await startSim({ sandboxMax: 2 });
    const first = await createSandbox(s.base);
    await createSandbox(s.base);
    const third = await fetch(`${s.base}/_sim/sandboxes`, { method: 'POST' });
    expect(third.status).toBe(429);
    expect(await third.json()).toMatchObject({ code: 'SANDBOX_LIMIT' });
    const nested = await fetch(`${s.base}${first.basePath}/_sim/sandboxes`, { method: 'POST' });
    expect(nested.status).toBe(404);
    expect(((await nested.json()) as { message: string }).message).toContain('do not nest');
  });

  test('an idle sandbox is deleted after SANDBOX_IDLE_MS; one with an open session is kept', async () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 24));
    const s = await startSim({ sandboxIdleMs: 60_000 }, { clock });
    const idle = await createSandbox(s.base);
    const busy = await createSandbox(s.base);
    await connectAuthenticated(
      s.wsUrl.replace('/customerapi/', `${busy.basePath}/customerapi/`),
      tokenOf(busy),
    );
    clock.advance(60_000);
    clock.advance(60_000);
    const left = (await (await fetch(`${s.base}/_sim/sandboxes`)).json()) as { sandboxes: SandboxInfo[] };
    expect(left.sandboxes.map((b) => b.id)).toEqual([busy.id]);
    expect((await fetch(`${s.base}${idle.basePath}/health`)).status).toBe(404);
  });

  test.each([
    [[1], 'JSON object'],
    [{ replay: 'yes' }, '"replay"'],
    [{ replay: {} }, 'intervalMs'],
    [{ replay: { intervalMs: -5 } }, 'replay.intervalMs'],
    [{ longPollTimeoutMs: 0 }, 'longPollTimeoutMs'],
    [{ colour: 'red' }, 'colour'],
  ])('a bad sandbox body %j is 400 and creates nothing', async (body, message) => {
    const s = await startSim();
    const res = await fetch(`${s.base}/_sim/sandboxes`, {
      method: 'POST',
      headers: JSON_TYPE,
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toContain(message);
    expect(((await (await fetch(`${s.base}/_sim/sandboxes`)).json()) as { sandboxes: [] }).sandboxes).toEqual(
      [],
    );
  });

  test('a sandbox may replay the recordings on its own', async () => {
    const s = await startSim(
      {},
      {
        recordings: [
          {
            kind: 'json',
            delivery: 'durable',
            at: 0,
            source: 'r1',
            message: event('RaceDayTrot', { payload: { n: 7 } }),
          },
          {
            kind: 'json',
            delivery: 'durable',
            at: 1,
            source: 'r2',
            message: event('RaceDayTrot', { payload: { n: 8 } }),
          },
        ],
      },
    );
    const box = await createSandbox(s.base, { replay: { intervalMs: 1 } });
    const boxBase = s.base + box.basePath;
    const wait = await fetch(`${boxBase}/_sim/journal/wait?kind=received&count=2&timeout=5000`);
    expect(wait.status).toBe(200);
    expect(await eventIds(boxBase, tokenOf(box))).toEqual(expect.arrayContaining([7, 8]));
    expect(await eventIds(s.base, TOKENS.testuser)).toEqual([]);
  });

  test('property: posts to the default simulator and to sandboxes never cross', async () => {
    const s = await startSim({ longPollTimeoutMs: 1 });
    const boxes = [await createSandbox(s.base), await createSandbox(s.base)];
    const targets = [
      { base: s.base, token: TOKENS.testuser },
      ...boxes.map((b) => ({ base: s.base + b.basePath, token: tokenOf(b) })),
    ];
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ target: fc.integer({ min: 0, max: 2 }), reset: fc.boolean() }), {
          maxLength: 12,
        }),
        async (ops) => {
          for (const t of targets) await fetch(`${t.base}/_sim/reset`, { method: 'POST' });
          const expected: number[][] = [[], [], []];
          for (const op of ops) {
            const target = targets[op.target]!;
            if (op.reset && expected[op.target]!.length > 0) {
              await fetch(`${target.base}/_sim/reset`, { method: 'POST' });
              expected[op.target] = [];
            } else {
              n += 1;
              await postJson(target.base, '/api/message', event('RaceDayTrot', { payload: { n } }));
              expected[op.target]!.push(n);
            }
          }
          for (const [i, t] of targets.entries())
            expect(await eventIds(t.base, t.token)).toEqual(expected[i]);
        },
      ),
      { numRuns: 25 },
    );
  });
});
