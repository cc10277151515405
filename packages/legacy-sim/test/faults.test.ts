import { UserTable } from '@racedata/core';
import { TOKENS } from '@racedata/test-support';
import { LEGACY_USERS, legacyChannelCatalog } from '../src/description';
import {
  AUTH,
  StompUser,
  authenticate,
  closeAll,
  control,
  controlJson,
  listen,
  post,
  startSim,
  until,
  upgradeRefusal,
  type Running,
} from './support';

afterEach(closeAll);

// A second customer, so a rule for one user can be shown to leave the other alone.
const OTHER = 'otheruser';
const OTHER_TOKEN = 'b3RoZXJ1c2Vy';
const twoUsers = () =>
  UserTable.fromJSON(
    [...LEGACY_USERS, { key: OTHER, secret: 'otherpassword', token: OTHER_TOKEN, channels: '*' }],
    legacyChannelCatalog(),
  );

interface Rule {
  id: string;
  fired: number;
  times?: number;
  forMs?: number;
  match: Record<string, unknown>;
  action: Record<string, unknown>;
}
interface JournalPage {
  entries: Array<Record<string, unknown>>;
  nextSince: number;
}
interface State {
  users: Record<string, { sockets: number; heldPolls: number; queueDepth: number }>;
}

const addRule = (s: Running, body: unknown) => controlJson<Rule>(s.base, 'POST', 'faults', body);
const rules = async (s: Running) => (await controlJson<{ rules: Rule[] }>(s.base, 'GET', 'faults')).rules;
const state = (s: Running) => controlJson<State>(s.base, 'GET', 'state');
const journal = (s: Running, query: string) => controlJson<JournalPage>(s.base, 'GET', `journal?${query}`);
/** Answered as soon as `count` matching entries exist; fails the test on the 408 of a timeout. */
const journalWait = (s: Running, query: string) =>
  controlJson<JournalPage>(s.base, 'GET', `journal/wait?${query}&timeout=5000`);
const advance = (s: Running, ms: number) =>
  controlJson<{ timersFired: number }>(s.base, 'POST', 'clock/advance', { ms });
const inject = async (s: Running, channel: string, durability: 'Durable' | 'NonDurable', key: string) => {
  const res = await post(
    s.base,
    `/customerapi/channel/${channel}/${durability}?payloadKey=${key}`,
    `<${channel}/>`,
  );
  expect(res.status).toBe(200);
};
/** A request that reached a rule: no journal entry marks it, so ask until `fired` says so. */
const firedOnce = (s: Running, id: string) =>
  until(async () => (await rules(s)).find((r) => r.id === id)?.fired === 1, `rule ${id} to fire`);

/** Tracks whether a request has been answered yet, without awaiting it. */
function pending<T>(promise: Promise<T>): { promise: Promise<T>; settled: () => boolean } {
  let settled = false;
  const tracked = promise.finally(() => {
    settled = true;
  });
  return { promise: tracked, settled: () => settled };
}

describe('status rules', () => {
  test('answer the next two listen polls with status, body and Retry-After; the third gets the message queued before', async () => {
    const s = await startSim({}, { users: twoUsers() });
    await inject(s, 'RaceDay', 'Durable', 'k1');
    const rule = await addRule(s, {
      match: { transport: 'listen', user: 'testuser' },
      action: {
        type: 'status',
        status: 503,
        body: { status: 'fail', code: 'MAINTENANCE', message: 'down for maintenance' },
        retryAfter: 7,
      },
      times: 2,
    });
    expect(rule).toMatchObject({ id: expect.any(String), fired: 0, times: 2 });

    // Another user's poll does not match: it gets its copy and uses none of the two firings.
    const other = await listen(s.base, OTHER_TOKEN);
    expect(other.status).toBe(200);
    expect(await other.json()).toBe('<RaceDay/>');
    expect(await rules(s)).toEqual([expect.objectContaining({ id: rule.id, fired: 0 })]);

    for (const firing of [1, 2]) {
      const res = await listen(s.base);
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('7');
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await res.json()).toEqual({
        status: 'fail',
        code: 'MAINTENANCE',
        message: 'down for maintenance',
      });
      // Used up on its second firing, the rule is gone at once.
      expect(await rules(s)).toEqual(
        firing === 1 ? [expect.objectContaining({ id: rule.id, fired: 1 })] : [],
      );
    }

    const third = await listen(s.base);
    expect(third.status).toBe(200);
    expect(await third.json()).toBe('<RaceDay/>');
    const delivered = await journal(s, 'kind=delivered&user=testuser');
    expect(delivered.entries).toEqual([expect.objectContaining({ transport: 'listen', payloadKey: 'k1' })]);
  });

  test('fail the STOMP handshake with that status until used up; then a client connects and receives', async () => {
    const s = await startSim();
    await addRule(s, {
      match: { transport: 'stomp' },
      action: { type: 'status', status: 503, body: 'broker restarting', retryAfter: 3 },
      times: 2,
    });

    const refused = await upgradeRefusal(s.ws(), AUTH);
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe('3');
    expect(refused.headers['content-type']).toMatch(/^text\/plain/);
    expect(refused.body).toBe('broker restarting');

    // A real client's first attempt is the second firing: its socket never opens (1006), it
    // reconnects on its own, the rule is used up by then, and the session works.
    const client = await StompUser.connect(s.ws('/api/v1/channels/connect'), TOKENS.testuser, {
      reconnect: true,
    });
    expect(await client.closes.next()).toBe(1006);
    expect(await rules(s)).toEqual([]);
    await inject(s, 'SplitTimes', 'NonDurable', 'p1');
    expect(await client.nextMessage()).toMatchObject({ channel: 'SplitTimes', payloadKey: 'p1' });
  });
});

describe('hold and delay rules', () => {
  test('hold keeps a listen poll open before it reaches the queue; deleting the rule lets it deliver', async () => {
    const s = await startSim();
    await inject(s, 'RaceDay', 'Durable', 'k1');
    const rule = await addRule(s, { match: { transport: 'listen' }, action: { type: 'hold' } });
    const poll = pending(listen(s.base));
    await firedOnce(s, rule.id);

    // Held in front of the simulator: not a waiting poll, the message still queued, nothing sent.
    expect((await state(s)).users.testuser).toEqual({
      sockets: 0,
      heldPolls: 0,
      queueDepth: 1,
      unconfirmed: 0,
    });
    expect((await journal(s, 'kind=delivered')).entries).toEqual([]);
    // No long-poll deadline runs for it: time well past LONG_POLL_TIMEOUT (2 s here) answers nothing.
    await advance(s, 10_000);
    expect(poll.settled()).toBe(false);
    expect((await journal(s, 'kind=delivered')).entries).toEqual([]);

    expect(await controlJson(s.base, 'DELETE', `faults/${rule.id}`)).toEqual({ removed: 1 });
    const res = await poll.promise;
    expect(res.status).toBe(200);
    expect(await res.json()).toBe('<RaceDay/>');
    const page = await journalWait(s, 'kind=delivered&transport=listen&count=1');
    expect(page.entries).toEqual([expect.objectContaining({ user: 'testuser', payloadKey: 'k1' })]);
  });

  test('delay runs on the advanceable clock: the poll is answered only once the clock passes it', async () => {
    const s = await startSim();
    await inject(s, 'RaceDay', 'Durable', 'k1');
    const rule = await addRule(s, { match: { transport: 'listen' }, action: { type: 'delay', ms: 30_000 } });
    const poll = pending(listen(s.base));
    await firedOnce(s, rule.id);

    // The simulator's clock also runs in real time: halfway is safely short of the delay.
    await advance(s, 15_000);
    expect(poll.settled()).toBe(false);
    expect((await journal(s, 'kind=delivered')).entries).toEqual([]);
    expect((await state(s)).users.testuser?.heldPolls).toBe(0);

    expect((await advance(s, 15_000)).timersFired).toBeGreaterThanOrEqual(1);
    const res = await poll.promise;
    expect(res.status).toBe(200);
    expect(await res.json()).toBe('<RaceDay/>');
    const delivered = await journalWait(s, 'kind=delivered&transport=listen&count=1');
    expect(delivered.entries).toEqual([expect.objectContaining({ payloadKey: 'k1' })]);
    // Without `times` the rule stays for the next request.
    expect(await rules(s)).toEqual([expect.objectContaining({ id: rule.id, fired: 1 })]);
  });

  test.each([
    ['hold', { type: 'hold' }],
    ['delay', { type: 'delay', ms: 60_000 }],
  ])('close() answers a poll a %s rule keeps waiting with 204', async (_type, action) => {
    const s = await startSim();
    const rule = await addRule(s, { match: { transport: 'listen' }, action });
    const poll = listen(s.base);
    await firedOnce(s, rule.id);
    const started = Date.now();
    await s.sim.close();
    const res = await poll;
    expect(res.status).toBe(204);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe('disconnect rules', () => {
  test('close a user’s live STOMP session with the code, journal it, and leave another user’s session open', async () => {
    const s = await startSim({}, { users: twoUsers() });
    const mine = await StompUser.connect(s.ws(), TOKENS.testuser);
    const theirs = await StompUser.connect(s.ws('/api/v1/channels/connect'), OTHER_TOKEN);

    const rule = await addRule(s, {
      match: { transport: 'stomp', user: 'testuser' },
      action: { type: 'disconnect', code: 4001 },
    });
    expect(rule.fired).toBe(1);
    expect(await mine.closes.next()).toBe(4001);
    const closed = await journalWait(s, 'kind=closed&count=1');
    expect(closed.entries).toEqual([
      expect.objectContaining({ kind: 'closed', user: 'testuser', transport: 'stomp', code: 4001 }),
    ]);

    // The other user's session is still subscribed and receives.
    await inject(s, 'SplitTimes', 'NonDurable', 'p1');
    expect(await theirs.nextMessage()).toMatchObject({ payloadKey: 'p1' });
    expect((await state(s)).users).toMatchObject({ testuser: { sockets: 0 }, [OTHER]: { sockets: 1 } });

    // While the rule is in force, a new session of that user is closed the same way as it opens.
    const again = new StompUser(s.ws(), TOKENS.testuser);
    again.client.activate();
    expect(await again.closes.next()).toBe(4001);
    expect(await rules(s)).toEqual([expect.objectContaining({ id: rule.id, fired: 2 })]);
    const all = await journalWait(s, 'kind=closed&count=2');
    expect(all.entries.map((e) => [e.user, e.code])).toEqual([
      ['testuser', 4001],
      ['testuser', 4001],
    ]);
    const metrics = await (await fetch(`${s.base}/metrics`)).text();
    expect(metrics).toContain('racedata_sessions_closed_total{transport="stomp",code="4001"} 2');
    expect(metrics).toContain('racedata_fault_firings_total{action="disconnect"} 2');
  });

  test('reset on listen cuts the TCP connection; the queued message comes with the next poll', async () => {
    const s = await startSim();
    await inject(s, 'RaceDay', 'Durable', 'k1');
    await addRule(s, {
      match: { transport: 'listen' },
      action: { type: 'disconnect', reset: true },
      times: 1,
    });

    const failure = await listen(s.base).then(
      () => undefined,
      (err: unknown) => err as Error & { cause?: { code?: string } },
    );
    // A reset, not a clean close: the client reads ECONNRESET before any response.
    expect(failure?.message).toBe('fetch failed');
    expect(failure?.cause?.code).toBe('ECONNRESET');
    expect(await rules(s)).toEqual([]);
    expect((await journal(s, 'kind=delivered')).entries).toEqual([]);

    const next = await listen(s.base);
    expect(next.status).toBe(200);
    expect(await next.json()).toBe('<RaceDay/>');
  });
});

describe('drop rules', () => {
  test('swallow one user’s transient deliveries on a channel, not another user’s; deleting resumes them', async () => {
    const s = await startSim({}, { users: twoUsers() });
    const mine = await StompUser.connect(s.ws(), TOKENS.testuser);
    const theirs = await StompUser.connect(s.ws(), OTHER_TOKEN);
    const rule = await addRule(s, {
      match: { transport: 'stomp', user: 'testuser', channel: 'SplitTimes' },
      action: { type: 'drop' },
    });

    await inject(s, 'SplitTimes', 'NonDurable', 's1');
    expect(await theirs.nextMessage()).toMatchObject({ channel: 'SplitTimes', payloadKey: 's1' });
    expect(await rules(s)).toEqual([expect.objectContaining({ id: rule.id, fired: 1 })]);
    // Another channel still reaches the user, and frames arrive in order: s1 never came.
    await inject(s, 'TimeToStart', 'NonDurable', 't1');
    expect(await mine.nextMessage()).toMatchObject({ channel: 'TimeToStart', payloadKey: 't1' });
    const mineDelivered = await journal(s, 'kind=delivered&user=testuser');
    expect(mineDelivered.entries.map((e) => e.payloadKey)).toEqual(['t1']);

    expect(await controlJson(s.base, 'DELETE', 'faults')).toEqual({ removed: 1 });
    await inject(s, 'SplitTimes', 'NonDurable', 's2');
    expect(await mine.nextMessage()).toMatchObject({ channel: 'SplitTimes', payloadKey: 's2' });
    expect(await theirs.nextMessage()).toMatchObject({ channel: 'TimeToStart', payloadKey: 't1' });
    expect(await theirs.nextMessage()).toMatchObject({ channel: 'SplitTimes', payloadKey: 's2' });
  });
});

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
