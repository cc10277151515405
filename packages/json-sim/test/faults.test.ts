import { TOKENS } from '@racedata/test-support';
import {
  EVENTS_PATH,
  WsClient,
  authenticate,
  closeAll,
  connectAuthenticated,
  event,
  get,
  postMessage,
  startSim,
} from './helpers';

afterEach(closeAll);

const control = (base: string, path: string, init: RequestInit = {}) => fetch(`${base}/_sim/${path}`, init);
const postControl = (base: string, path: string, body?: unknown) =>
  control(base, path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    ...(body !== undefined && { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });

interface Rule {
  id: string;
  fired: number;
}

async function addFault(base: string, rule: unknown): Promise<Rule> {
  const res = await postControl(base, 'faults', rule);
  const body = (await res.json()) as Rule;
  if (res.status !== 201) throw new Error(`fault refused: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

async function rules(base: string): Promise<Rule[]> {
  return ((await (await control(base, 'faults')).json()) as { rules: Rule[] }).rules;
}

/** Resolves with the response, remembering whether it has settled yet. */
function tracked<T>(promise: Promise<T>): { promise: Promise<T>; settled: () => boolean } {
  let done = false;
  const settledPromise = promise.finally(() => {
    done = true;
  });
  return { promise: settledPromise, settled: () => done };
}

describe('JSON simulator fault rules', () => {
  test('a 503 with Retry-After for two polls; the client resumes from lastEventId and loses nothing', async () => {
    const s = await startSim();
    await postMessage(s.base, event('RaceDayTrot', { payload: { n: 1 } }));
    const rule = await addFault(s.base, {
      match: { transport: 'events', user: 'testuser' },
      action: { type: 'status', status: 503, retryAfter: 2 },
      times: 2,
    });
    expect(rule).toMatchObject({ id: expect.any(String), fired: 0, times: 2 });
    for (let i = 0; i < 2; i++) {
      const res = await get(s.base, `${EVENTS_PATH}?lastEventId=0`, TOKENS.testuser);
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('2');
      expect(res.body).toMatchObject({ status: 'fail', code: 'INJECTED_FAULT' });
    }
    // Another user is not matched.
    expect((await get(s.base, `${EVENTS_PATH}?lastEventId=0`, TOKENS.alluser)).status).toBe(200);
    expect(await rules(s.base)).toEqual([]);
    await postMessage(s.base, event('RaceDayTrot', { payload: { n: 2 } }));
    const page = await get(s.base, `${EVENTS_PATH}?lastEventId=0`, TOKENS.testuser);
    expect(page.status).toBe(200);
    expect(page.body.data?.events.map((e) => e.payload)).toEqual([{ n: 1 }, { n: 2 }]);
  });

  test('a status rule may give its own body; a path prefix matches', async () => {
    const s = await startSim();
    await addFault(s.base, {
      match: { path: '/customerapi/*' },
      action: { type: 'status', status: 500, body: 'upstream exploded' },
      times: 1,
    });
    const res = await get(s.base, `${EVENTS_PATH}?lastEventId=0`, TOKENS.testuser);
    expect(res.status).toBe(500);
    expect(res.text).toBe('upstream exploded');
    expect(res.headers.get('content-type')).toContain('text/plain');
  });

  test('hold keeps a poll open until the rule is removed, then it is answered', async () => {
    const s = await startSim();
    await postMessage(s.base, event('RaceDayTrot'));
    const rule = await addFault(s.base, { match: { transport: 'events' }, action: { type: 'hold' } });
    const poll = tracked(get(s.base, `${EVENTS_PATH}?lastEventId=0`, TOKENS.testuser));
    // The rule fired: the request reached the simulator and is held by it.
    for (;;) {
      const [current] = await rules(s.base);
      if (current && current.fired === 1) break;
    }
    expect(poll.settled()).toBe(false);
    expect((await control(s.base, `faults/${rule.id}`, { method: 'DELETE' })).status).toBe(200);
    const res = await poll.promise;
    expect(res.status).toBe(200);
    expect(res.body.data?.numberOfEvents).toBe(1);
  });

  test('delay runs on the simulator clock: the poll is answered once the clock is advanced', async () => {
    const s = await startSim();
    await postMessage(s.base, event('RaceDayTrot'));
    await addFault(s.base, {
      match: { transport: 'events' },
      action: { type: 'delay', ms: 60_000 },
      times: 1,
    });
    const poll = tracked(get(s.base, `${EVENTS_PATH}?lastEventId=0`, TOKENS.testuser));
    for (;;) {
      const rest = await rules(s.base);
      if (rest.length === 0) break; // used up: the request is being delayed
    }
    expect(poll.settled()).toBe(false);
    const advanced = (await (await postControl(s.base, 'clock/advance', { ms: 60_000 })).json()) as {
      timersFired: number;
    };
    expect(advanced.timersFired).toBeGreaterThanOrEqual(1);
    expect((await poll.promise).status).toBe(200);
  });

  test('disconnect closes a live event-stream session with the code; the journal records it', async () => {
    const s = await startSim();
    const victim = await connectAuthenticated(s.wsUrl, TOKENS.testuser);
    const bystander = await connectAuthenticated(s.wsUrl, TOKENS.alluser);
    await addFault(s.base, {
      match: { transport: 'event-stream', user: 'testuser' },
      action: { type: 'disconnect', code: 4001 },
      times: 1,
    });
    expect((await victim.closed).code).toBe(4001);
    const wait = await control(s.base, 'journal/wait?kind=closed&user=testuser&count=1&timeout=2000');
    expect(wait.status).toBe(200);
    expect(((await wait.json()) as { entries: unknown[] }).entries).toEqual([
      expect.objectContaining({ kind: 'closed', user: 'testuser', transport: 'event-stream', code: 4001 }),
    ]);
    // The bystander still gets data; the used-up rule lets the victim back in.
    await postMessage(s.base, event('TimeToStartTrot', { payload: { n: 1 } }));
    expect((await bystander.next()).data?.payload).toEqual({ n: 1 });
    const back = await connectAuthenticated(s.wsUrl, TOKENS.testuser);
    await postMessage(s.base, event('TimeToStartTrot', { payload: { n: 2 } }));
    expect((await back.next()).data?.payload).toEqual({ n: 2 });
  });

  test('a disconnect rule in force closes a session as soon as it authenticates', async () => {
    const s = await startSim();
    await addFault(s.base, {
      match: { transport: 'event-stream' },
      action: { type: 'disconnect', code: 3000 },
    });
    const client = await connectAuthenticated(s.wsUrl, TOKENS.testuser);
    expect((await client.closed).code).toBe(3000);
  });

  test('disconnect with reset cuts an HTTP request without an answer', async () => {
    const s = await startSim();
    await addFault(s.base, {
      match: { transport: 'events' },
      action: { type: 'disconnect', reset: true },
      times: 1,
    });
    await expect(get(s.base, `${EVENTS_PATH}?lastEventId=0`, TOKENS.testuser)).rejects.toThrow();
    expect((await get(s.base, `${EVENTS_PATH}?lastEventId=0`, TOKENS.testuser)).status).toBe(204);
  });

  test('a status rule on the event-stream refuses the WebSocket handshake', async () => {
    const s = await startSim();
    await addFault(s.base, {
      match: { transport: 'event-stream' },
      action: { type: 'status', status: 503 },
      times: 1,
    });
    await expect(WsClient.connect(s.wsUrl)).rejects.toThrow('upgrade refused with 503');
    await connectAuthenticated(s.wsUrl, TOKENS.testuser);
  });

  test('drop swallows one user’s transient deliveries on a channel; others still get them', async () => {
    const s = await startSim();
    const dropped = await connectAuthenticated(s.wsUrl, TOKENS.testuser);
    const other = await connectAuthenticated(s.wsUrl, TOKENS.alluser);
    const rule = await addFault(s.base, {
      match: { transport: 'event-stream', user: 'testuser', channel: 'TimeToStartTrot' },
      action: { type: 'drop' },
    });
    await postMessage(s.base, event('TimeToStartTrot', { payload: { n: 1 } }));
    await postMessage(s.base, event('SplitTimesTrot', { payload: { n: 2 } }));
    expect((await other.next()).data?.payload).toEqual({ n: 1 });
    // Messages arrive in order: the first the dropped user sees is the other channel's.
    expect((await dropped.next()).data?.payload).toEqual({ n: 2 });
    expect((await rules(s.base))[0]?.fired).toBe(1);
    await control(s.base, `faults/${rule.id}`, { method: 'DELETE' });
    await postMessage(s.base, event('TimeToStartTrot', { payload: { n: 3 } }));
    expect((await dropped.next()).data?.payload).toEqual({ n: 3 });
  });

  test('forMs removes a rule when the simulator clock passes it', async () => {
    const s = await startSim();
    await addFault(s.base, {
      match: { transport: 'events' },
      action: { type: 'status', status: 503 },
      forMs: 60_000,
    });
    expect((await get(s.base, `${EVENTS_PATH}?lastEventId=0`, TOKENS.testuser)).status).toBe(503);
    await postControl(s.base, 'clock/advance', { ms: 60_000 });
    expect(await rules(s.base)).toEqual([]);
    expect((await get(s.base, `${EVENTS_PATH}?lastEventId=0`, TOKENS.testuser)).status).toBe(204);
  });

  test('DELETE /_sim/faults removes every rule; reset clears them too; the control plane is never faulted', async () => {
    const s = await startSim();
    await addFault(s.base, { action: { type: 'status', status: 503 } });
    await addFault(s.base, { action: { type: 'delay', ms: 5 } });
    expect((await control(s.base, 'state')).status).toBe(200);
    const removed = await control(s.base, 'faults', { method: 'DELETE' });
    expect(await removed.json()).toEqual({ removed: 2 });
    await addFault(s.base, { action: { type: 'status', status: 503 } });
    const reset = (await (await postControl(s.base, 'reset')).json()) as { cleared: Record<string, number> };
    expect(reset.cleared.faultRules).toBe(1);
    expect(await rules(s.base)).toEqual([]);
    expect((await control(s.base, 'faults/f999', { method: 'DELETE' })).status).toBe(404);
  });

  test('GET /metrics counts fault firings by action', async () => {
    const s = await startSim();
    await addFault(s.base, {
      match: { transport: 'events' },
      action: { type: 'status', status: 429 },
      times: 3,
    });
    for (let i = 0; i < 3; i++) await get(s.base, `${EVENTS_PATH}?lastEventId=0`, TOKENS.testuser);
    const text = await (await fetch(`${s.base}/metrics`)).text();
    expect(text).toContain('racedata_fault_firings_total{action="status"} 3');
    expect(text).toContain(
      'racedata_http_requests_total{route="/customerapi/events",method="GET",status="429"} 3',
    );
  });

  test.each([
    [{ action: { type: 'explode' } }, 'action.type'],
    [{ action: { type: 'status', status: 600 } }, 'action.status'],
    [{ action: { type: 'status', status: 99 } }, 'action.status'],
    [{ action: { type: 'delay', ms: -1 } }, 'action.ms'],
    [{ match: { user: 'nobody' }, action: { type: 'hold' } }, 'match.user'],
    [{ match: { transport: 'listen' }, action: { type: 'hold' } }, 'no "listen" transport'],
    [{ match: { transport: 'events' }, action: { type: 'drop' } }, 'drop applies only'],
    [{ action: { type: 'disconnect', code: 1005 } }, 'reserved'],
    [{ action: { type: 'hold' }, times: 0 }, '"times"'],
    [{ action: { type: 'hold' }, colour: 'red' }, 'colour'],
    ['[1,2]', 'JSON object'],
    ['{"action":', 'not valid JSON'],
  ])('a bad fault %j is 400 with a clear message and adds nothing', async (body, message) => {
    const s = await startSim();
    const res = await postControl(s.base, 'faults', body);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toContain(message);
    expect(await rules(s.base)).toEqual([]);
  });
});

describe('JSON simulator connections/close and tokens/expire', () => {
  test('connections/close closes a user’s sessions with the code; a message sent meanwhile is not replayed', async () => {
    const s = await startSim();
    const a = await connectAuthenticated(s.wsUrl, TOKENS.testuser);
    const b = await connectAuthenticated(s.wsUrl, TOKENS.testuser);
    const other = await connectAuthenticated(s.wsUrl, TOKENS.alluser);
    const res = await postControl(s.base, 'connections/close', { user: 'testuser', code: 4002 });
    expect(await res.json()).toEqual({ closed: 2 });
    expect((await a.closed).code).toBe(4002);
    expect((await b.closed).code).toBe(4002);
    await postMessage(s.base, event('TimeToStartTrot', { payload: { n: 1 } }));
    expect((await other.next()).data?.payload).toEqual({ n: 1 });
    const again = await connectAuthenticated(s.wsUrl, TOKENS.testuser);
    await postMessage(s.base, event('TimeToStartTrot', { payload: { n: 2 } }));
    // n: 1 went out while the user was away: nothing is replayed.
    expect((await again.next()).data?.payload).toEqual({ n: 2 });
  });

  test('connections/close refuses a bad body', async () => {
    const s = await startSim();
    for (const body of [{ user: 'nobody' }, { transport: 'listen' }, { code: 999 }, { kill: true }]) {
      expect((await postControl(s.base, 'connections/close', body)).status).toBe(400);
    }
  });

  test('tokens/expire: a JWT answers 401 TOKEN_EXPIRED; authenticating again works', async () => {
    const s = await startSim({ tokenMode: 'jwt' });
    const token = await authenticate(s.base, 'testuser', 'testpassword');
    const otherToken = await authenticate(s.base, 'alluser', 'allpassword');
    expect((await get(s.base, `${EVENTS_PATH}?lastEventId=0`, token)).status).toBe(204);
    const res = await postControl(s.base, 'tokens/expire', { user: 'testuser' });
    expect(await res.json()).toEqual({ expired: ['testuser'] });
    const refused = await get(s.base, `${EVENTS_PATH}?lastEventId=0`, token);
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ status: 'fail', message: 'token expired; authenticate again' });
    expect((await get(s.base, `${EVENTS_PATH}?lastEventId=0`, otherToken)).status).toBe(204);
    const fresh = await authenticate(s.base, 'testuser', 'testpassword');
    expect((await get(s.base, `${EVENTS_PATH}?lastEventId=0`, fresh)).status).toBe(204);
  });

  test('tokens/expire without a user expires the fixed tokens of every user until each authenticates', async () => {
    const s = await startSim();
    expect(await (await postControl(s.base, 'tokens/expire')).json()).toEqual({
      expired: ['testuser', 'alluser'],
    });
    expect((await get(s.base, `${EVENTS_PATH}?lastEventId=0`, TOKENS.alluser)).status).toBe(401);
    const client = await WsClient.connect(s.wsUrl);
    await client.next('Connection');
    client.send(JSON.stringify({ token: TOKENS.testuser }));
    expect((await client.closed).code).toBe(1008);
    await authenticate(s.base, 'alluser', 'allpassword');
    expect((await get(s.base, `${EVENTS_PATH}?lastEventId=0`, TOKENS.alluser)).status).toBe(204);
    expect((await postControl(s.base, 'tokens/expire', { user: 'ghost' })).status).toBe(400);
  });
});
