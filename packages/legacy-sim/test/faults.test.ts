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
  firedOnce,
  pending,
} from './faults-support';
import { AUTH, StompUser, closeAll, controlJson, listen, startSim, upgradeRefusal } from './support';

afterEach(closeAll);

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
