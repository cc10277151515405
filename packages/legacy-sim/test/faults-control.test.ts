import { TOKENS } from '@racedata/test-support';
import {
  OTHER,
  OTHER_TOKEN,
  twoUsers,
  addRule,
  rules,
  state,
  journal,
  journalWait,
  advance,
  inject,
} from './faults-support';
import {
  StompUser,
  authenticate,
  closeAll,
  control,
  controlJson,
  listen,
  startSim,
  upgradeRefusal,
} from './support';

afterEach(closeAll);

describe('POST /_sim/connections/close', () => {
  test('closes one user’s STOMP sessions with the code; the client re-authenticates, reconnects, and gets no replay', async () => {
    const s = await startSim({}, { users: twoUsers() });
    let gate: Promise<void> = Promise.resolve();
    let openGate = () => undefined as void;
    let authentications = 0;
    const reconnecting = await StompUser.connect(s.ws(), TOKENS.testuser, {
      reconnect: true,
      token: async () => {
        await gate;
        authentications++;
        return authenticate(s.base, 'testuser', 'testpassword');
      },
    });
    const second = await StompUser.connect(s.ws('/api/v1/channels/connect'), TOKENS.testuser);
    const theirs = await StompUser.connect(s.ws(), OTHER_TOKEN);
    // The reconnect waits here until the test has sent a message into the gap.
    gate = new Promise((resolve) => (openGate = resolve));

    const res = await control(s.base, 'POST', 'connections/close', { user: 'testuser', code: 4002 });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ closed: 2 });
    expect(await reconnecting.closes.next()).toBe(4002);
    expect(await second.closes.next()).toBe(4002);
    const closed = await journalWait(s, 'kind=closed&user=testuser&count=2');
    expect(closed.entries.map((e) => e.code)).toEqual([4002, 4002]);
    expect((await state(s)).users).toMatchObject({ testuser: { sockets: 0 }, [OTHER]: { sockets: 1 } });

    // Sent while the user has no session: transient, so it is gone for that user.
    await inject(s, 'SplitTimes', 'NonDurable', 'missed');
    expect(await theirs.nextMessage()).toMatchObject({ payloadKey: 'missed' });

    openGate();
    await reconnecting.subscribed.next();
    expect(authentications).toBe(2);
    await inject(s, 'SplitTimes', 'NonDurable', 'after');
    expect(await reconnecting.nextMessage()).toMatchObject({ payloadKey: 'after' });
    const delivered = await journal(s, 'kind=delivered&user=testuser');
    expect(delivered.entries.map((e) => e.payloadKey)).toEqual(['after']);
  });
});

describe('POST /_sim/tokens/expire', () => {
  test('a fixed token answers 401 TOKEN_EXPIRED on listen and upgrade until the user authenticates again', async () => {
    const s = await startSim({}, { users: twoUsers() });
    const token = await authenticate(s.base, 'testuser', 'testpassword');
    await inject(s, 'RaceDay', 'Durable', 'k1');

    expect(await controlJson(s.base, 'POST', 'tokens/expire', { user: 'testuser' })).toEqual({
      expired: ['testuser'],
    });
    const refused = await listen(s.base, token);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ status: 'fail', code: 'TOKEN_EXPIRED' });
    expect((await upgradeRefusal(s.ws(), { authorization: `Bearer ${token}` })).status).toBe(401);
    // Only that user's tokens expired.
    const other = await listen(s.base, OTHER_TOKEN);
    expect(other.status).toBe(200);

    const fresh = await authenticate(s.base, 'testuser', 'testpassword');
    const res = await listen(s.base, fresh);
    expect(res.status).toBe(200);
    expect(await res.json()).toBe('<RaceDay/>');
    const client = await StompUser.connect(s.ws(), fresh);
    await inject(s, 'SplitTimes', 'NonDurable', 'p1');
    expect(await client.nextMessage()).toMatchObject({ payloadKey: 'p1' });
  });

  test('a JWT issued before the expiry stays expired; one issued after works', async () => {
    const s = await startSim({ tokenMode: 'jwt', tokenTtlSeconds: 3600 });
    const old = await authenticate(s.base, 'testuser', 'testpassword');
    expect(old.split('.')).toHaveLength(3);
    await inject(s, 'RaceDay', 'Durable', 'k1');
    await controlJson(s.base, 'POST', 'tokens/expire', { user: 'testuser' });

    const refused = await listen(s.base, old);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ code: 'TOKEN_EXPIRED' });
    expect((await upgradeRefusal(s.ws(), { authorization: `Bearer ${old}` })).status).toBe(401);

    const fresh = await authenticate(s.base, 'testuser', 'testpassword');
    expect(fresh).not.toBe(old);
    const res = await listen(s.base, fresh);
    expect(res.status).toBe(200);
    expect(await res.json()).toBe('<RaceDay/>');
    const stillOld = await listen(s.base, old);
    expect(stillOld.status).toBe(401);
    expect(await stillOld.json()).toMatchObject({ code: 'TOKEN_EXPIRED' });
    expect((await upgradeRefusal(s.ws(), { authorization: `Bearer ${old}` })).status).toBe(401);
  });
});

describe('validation', () => {
  test.each([
    ['an unknown action type', { action: { type: 'explode' } }, /"action.type" must be one of status, delay/],
    [
      'status 600',
      { action: { type: 'status', status: 600 } },
      /"action.status" must be an integer from 200 to 599/,
    ],
    // A 1xx is no final answer: the client would wait for the real one forever.
    [
      'status 103',
      { action: { type: 'status', status: 103 } },
      /"action.status" must be an integer from 200 to 599/,
    ],
    ['a negative delay', { action: { type: 'delay', ms: -1 } }, /"action.ms" must be an integer from 0/],
    [
      'an unknown user',
      { match: { user: 'nobody' }, action: { type: 'hold' } },
      /"match.user" must name a known user; known: testuser/,
    ],
    [
      'a JSON-simulator transport',
      { match: { transport: 'events' }, action: { type: 'hold' } },
      /the legacy simulator has no "events" transport; it has listen, stomp/,
    ],
    [
      'drop on listen',
      { match: { transport: 'listen' }, action: { type: 'drop' } },
      /drop applies only to transient WebSocket deliveries/,
    ],
    ['close code 1005', { action: { type: 'disconnect', code: 1005 } }, /"action.code" 1005 is reserved/],
    ['times 0', { action: { type: 'hold' }, times: 0 }, /"times" must be an integer from 1/],
    ['an unknown key', { action: { type: 'hold' }, when: 'now' }, /unknown fault key "when"/],
  ])('POST /_sim/faults with %s is a 400 that adds nothing', async (_why, body, message) => {
    const s = await startSim();
    const res = await control(s.base, 'POST', 'faults', body);
    expect(res.status).toBe(400);
    const error = (await res.json()) as { status: string; code: string; message: string };
    expect(error).toMatchObject({ status: 'fail', code: 'VALIDATION_FAILED' });
    expect(error.message).toMatch(message);
    expect(await rules(s)).toEqual([]);
  });

  test('bad connections/close and tokens/expire bodies are 400s that close and expire nothing', async () => {
    const s = await startSim();
    const client = await StompUser.connect(s.ws(), TOKENS.testuser);
    for (const [body, message] of [
      [{ code: 1005 }, /"code" 1005 is reserved/],
      [{ user: 'nobody' }, /"user" must name a known user/],
      // The JSON simulator's session transport: nothing here could ever match it.
      [{ transport: 'event-stream' }, /"transport" must be "stomp"/],
    ] as const) {
      const res = await control(s.base, 'POST', 'connections/close', body);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({
        code: 'VALIDATION_FAILED',
        message: expect.stringMatching(message),
      });
    }
    const badUser = await control(s.base, 'POST', 'tokens/expire', { user: 'nobody' });
    expect(badUser.status).toBe(400);
    expect(await badUser.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: expect.stringMatching(/"user"/),
    });

    // The session is still open and the token still valid.
    expect((await state(s)).users.testuser?.sockets).toBe(1);
    await inject(s, 'SplitTimes', 'NonDurable', 'p1');
    expect(await client.nextMessage()).toMatchObject({ payloadKey: 'p1' });
    await inject(s, 'RaceDay', 'Durable', 'k1');
    expect((await listen(s.base)).status).toBe(200);
    expect(await rules(s)).toEqual([]);
  });
});

describe('metrics, expiry and reset', () => {
  test('GET /metrics counts status firings', async () => {
    const s = await startSim();
    await addRule(s, {
      match: { transport: 'listen' },
      action: { type: 'status', status: 429, retryAfter: 1 },
      times: 2,
    });
    for (let i = 0; i < 2; i++) {
      const res = await listen(s.base);
      expect(res.status).toBe(429);
      expect(await res.json()).toMatchObject({ code: 'INJECTED_FAULT' });
    }
    const metrics = await (await fetch(`${s.base}/metrics`)).text();
    expect(metrics).toContain('racedata_fault_firings_total{action="status"} 2');
    expect(metrics).toMatch(/^racedata_fault_rules 0$/m);
  });

  test('a rule with forMs is removed once the simulator clock passes it', async () => {
    const s = await startSim();
    const rule = await addRule(s, {
      match: { transport: 'listen' },
      action: { type: 'hold' },
      forMs: 60_000,
    });
    expect(rule.forMs).toBe(60_000);
    // The simulator's clock also runs in real time: halfway is safely short of forMs.
    await advance(s, 30_000);
    expect(await rules(s)).toEqual([expect.objectContaining({ id: rule.id })]);
    await advance(s, 30_000);
    expect(await rules(s)).toEqual([]);
    // Gone, so a poll is no longer held: it gets the message at once.
    await inject(s, 'RaceDay', 'Durable', 'k1');
    const res = await listen(s.base);
    expect(res.status).toBe(200);
  });

  test('POST /_sim/reset clears rules and token expiries unless {"faults": false}', async () => {
    const s = await startSim();
    await addRule(s, { match: { transport: 'inject' }, action: { type: 'status', status: 500 } });
    await controlJson(s.base, 'POST', 'tokens/expire', {});
    const kept = await controlJson<{ cleared: Record<string, number> }>(s.base, 'POST', 'reset', {
      faults: false,
    });
    expect(kept.cleared).toMatchObject({ faultRules: 0, tokenExpiries: 0 });
    expect(await rules(s)).toHaveLength(1);
    expect((await listen(s.base)).status).toBe(401);

    const cleared = await controlJson<{ cleared: Record<string, number> }>(s.base, 'POST', 'reset', {});
    expect(cleared.cleared).toMatchObject({ faultRules: 1, tokenExpiries: 1 });
    expect(await rules(s)).toEqual([]);
    await inject(s, 'RaceDay', 'Durable', 'k1');
    expect((await listen(s.base)).status).toBe(200);
  });
});
