import { TOKENS } from '@racedata/test-support';
import { EVENTS_PATH, authenticate, closeAll, event, get, postMessage, startSim } from './helpers';

afterEach(closeAll);

const control = (base: string, path: string, init: RequestInit = {}) => fetch(`${base}/_sim/${path}`, init);
const postControl = (base: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  control(base, path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    ...(body !== undefined && { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });

describe('JSON simulator control plane', () => {
  test('GET /_sim/state shows the store, users and replay', async () => {
    const s = await startSim();
    await postMessage(s.base, event('RaceDayTrot'));
    const state = (await (await control(s.base, 'state')).json()) as Record<string, unknown>;
    expect(state).toMatchObject({
      simulator: 'json',
      clockOffsetMs: 0,
      store: { events: 1, lastEventId: 1 },
      replay: { on: false, mode: null },
      journal: { entries: 1, max: 10000 },
    });
    expect((state.users as Record<string, unknown>).testuser).toEqual({
      unconfirmed: 0,
      sockets: 0,
      heldPolls: 0,
      queueDepth: 0,
    });
  });

  test('GET /_sim/state follows the replay: mode, position and total', async () => {
    const recorded = (n: number) => ({
      kind: 'json' as const,
      delivery: 'durable' as const,
      at: n,
      source: `r${n}`,
      message: event('RaceDayTrot', { payload: { n } }),
    });
    const s = await startSim(
      { autoReplayIntervalMs: 1 },
      { recordings: [recorded(1), recorded(2), recorded(3)] },
    );
    expect((await control(s.base, 'journal/wait?kind=received&count=2&timeout=5000')).status).toBe(200);
    const state = (await (await control(s.base, 'state')).json()) as {
      replay: { on: boolean; mode: string; position: number; total: number; sent: number };
    };
    expect(state.replay).toMatchObject({ on: true, mode: 'interval', total: 3 });
    expect(state.replay.sent).toBeGreaterThanOrEqual(2);
    expect(state.replay.position).toBeGreaterThanOrEqual(0);
    expect(state.replay.position).toBeLessThanOrEqual(3);
  });

  test('reset clears the store, restarts eventIds and answers held polls 204', async () => {
    const s = await startSim({ longPollTimeoutMs: 60_000 });
    await postMessage(s.base, event('RaceDayTrot'));
    await postMessage(s.base, event('RaceDayTrot'));
    const held = get(s.base, `${EVENTS_PATH}?lastEventId=2`, TOKENS.testuser);
    await waitForHeld(s.base);
    const res = await postControl(s.base, 'reset');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      cleared: {
        events: 2,
        heldPolls: 1,
        sockets: 0,
        journalEntries: 2,
        faultRules: 0,
        tokenExpiries: 0,
        clockOffsetMs: 0,
      },
      eventIds: 'restart',
    });
    expect((await held).status).toBe(204);
    const again = await postMessage(s.base, event('RaceDayTrot'));
    expect(again.body).toMatchObject({ data: { event: { eventId: 1 } } });
    // Idempotent: nothing left to clear.
    const twice = await postControl(s.base, 'reset', { journal: false, eventIds: 'continue' });
    expect(await twice.json()).toMatchObject({ cleared: { events: 1, heldPolls: 0 }, eventIds: 'continue' });
    expect((await postMessage(s.base, event('RaceDayTrot'))).body).toMatchObject({
      data: { event: { eventId: 2 } },
    });
  });

  test.each([
    ['{"bogus":true}', 'bogus'],
    ['{"events":"yes"}', 'events'],
    ['{"eventIds":"later"}', 'eventIds'],
    ['[1]', 'object'],
    ['{nope', 'JSON'],
  ])('reset refuses %s with 400 and changes nothing', async (body, named) => {
    const s = await startSim();
    await postMessage(s.base, event('RaceDayTrot'));
    const res = await postControl(s.base, 'reset', body);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toContain(named);
    expect(s.probe.store.size).toBe(1);
  });

  test('the journal lists received and delivered entries; wait answers once they exist', async () => {
    const s = await startSim();
    const waiting = control(s.base, 'journal/wait?user=testuser&transport=events&count=1&timeout=60000');
    await postMessage(s.base, event('RaceDayTrot'));
    expect((await get(s.base, `${EVENTS_PATH}?lastEventId=0`, TOKENS.testuser)).status).toBe(200);
    const waited = await waiting;
    expect(waited.status).toBe(200);
    const page = (await waited.json()) as { entries: unknown[]; nextSince: number };
    expect(page.entries).toEqual([
      expect.objectContaining({
        kind: 'delivered',
        user: 'testuser',
        transport: 'events',
        eventId: 1,
        status: 200,
      }),
    ]);
    const all = (await (await control(s.base, 'journal')).json()) as {
      entries: unknown[];
      nextSince: number;
    };
    expect(all.entries[0]).toMatchObject({
      seq: 1,
      kind: 'received',
      source: 'post',
      channel: 'RaceDayTrot',
      durable: true,
      eventId: 1,
    });
    expect(all.nextSince).toBe(2);
    const later = (await (await control(s.base, 'journal?since=2')).json()) as { entries: unknown[] };
    expect(later.entries).toEqual([]);
  });

  test('journal/wait answers 408 with what it saw at the timeout', async () => {
    const s = await startSim();
    await postMessage(s.base, event('RaceDayTrot'));
    const res = await control(s.base, 'journal/wait?count=2&timeout=0');
    expect(res.status).toBe(408);
    expect(((await res.json()) as { entries: unknown[] }).entries).toHaveLength(1);
  });

  test.each(['limit=0', 'since=-1', 'transport=pigeon', 'user=', 'colour=red', 'count=x'])(
    'journal parameters are validated: %s is 400 naming it',
    async (query) => {
      const s = await startSim();
      const path = query.startsWith('count') ? 'journal/wait' : 'journal';
      const res = await control(s.base, `${path}?${query}`);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { message: string }).message).toContain(query.split('=')[0]);
    },
  );

  test('advancing the clock 24 h + 1 s expires a JWT', async () => {
    const s = await startSim({ tokenMode: 'jwt', jwtSecret: 'control-test' });
    const token = await authenticate(s.base, 'testuser', 'testpassword');
    expect((await get(s.base, EVENTS_PATH, token)).status).not.toBe(401);
    const res = await postControl(s.base, 'clock/advance', { ms: 24 * 3_600_000 + 1000 });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ clockOffsetMs: 24 * 3_600_000 + 1000 });
    expect((await get(s.base, EVENTS_PATH, token)).status).toBe(401);
  });

  test('clock/advance refuses a bad body', async () => {
    const s = await startSim();
    expect((await postControl(s.base, 'clock/advance', { ms: -5 })).status).toBe(400);
    expect((await postControl(s.base, 'clock/advance', { ms: 1, x: 1 })).status).toBe(400);
  });

  test('CONTROL_API=off answers every /_sim/ path 404', async () => {
    const s = await startSim({ controlApi: 'off' });
    expect((await control(s.base, 'state')).status).toBe(404);
    expect((await postControl(s.base, 'reset')).status).toBe(404);
  });

  test('CONTROL_TOKEN guards the control plane', async () => {
    const s = await startSim({ controlToken: 'sesame' });
    expect((await control(s.base, 'state')).status).toBe(401);
    expect((await control(s.base, 'state', { headers: { authorization: 'Bearer wrong!' } })).status).toBe(
      401,
    );
    expect((await control(s.base, 'state', { headers: { authorization: 'Bearer sesame' } })).status).toBe(
      200,
    );
  });
});

async function waitForHeld(base: string): Promise<void> {
  for (;;) {
    const state = (await (await control(base, 'state')).json()) as {
      users: Record<string, { heldPolls: number }>;
    };
    if ((state.users.testuser?.heldPolls ?? 0) > 0) return;
  }
}
