import { ControlError } from 'racedata-sim';
import { TOKEN, closeAll, get, openEventStream, started } from './support';

afterEach(closeAll);

describe('ControlClient: faults, sessions, tokens', () => {
  test('addFault() returns the rule with its id; it fires, is listed with its count, and goes', async () => {
    const { json, jsonUrl } = await started();
    const rule = await json.addFault({
      match: { transport: 'events', user: 'testuser' },
      action: { type: 'status', status: 503, retryAfter: 2 },
      times: 2,
    });
    expect(rule).toEqual({
      id: expect.any(String),
      match: { transport: 'events', user: 'testuser' },
      action: { type: 'status', status: 503, retryAfter: 2 },
      times: 2,
      fired: 0,
    });
    const faulted = await get(`${jsonUrl}/customerapi/events?lastEventId=0`);
    expect(faulted.status).toBe(503);
    expect(faulted.headers.get('retry-after')).toBe('2');
    expect(await json.faults()).toEqual([expect.objectContaining({ id: rule.id, fired: 1 })]);

    expect(await json.removeFault(rule.id)).toBe(true);
    expect(await json.faults()).toEqual([]);
    // Removing it again is no error: the fault is gone either way.
    expect(await json.removeFault(rule.id)).toBe(false);
  });

  test('a rule with times: 1 is gone once it fired; removeFault() of it then answers false', async () => {
    const { json, jsonUrl } = await started();
    const rule = await json.addFault({
      match: { transport: 'events' },
      action: { type: 'status', status: 503 },
      times: 1,
    });
    expect((await get(`${jsonUrl}/customerapi/events?lastEventId=0`)).status).toBe(503);
    expect(await json.faults()).toEqual([]);
    expect(await json.removeFault(rule.id)).toBe(false);
    // The server still says 404 to a raw DELETE; the client turns only that into false.
    expect((await fetch(`${jsonUrl}/_sim/faults/${rule.id}`, { method: 'DELETE' })).status).toBe(404);
  });

  test('clearFaults() removes every rule and says how many', async () => {
    const { legacy } = await started();
    await legacy.addFault({ match: { transport: 'listen' }, action: { type: 'hold' } });
    await legacy.addFault({ match: { transport: 'inject' }, action: { type: 'delay', ms: 10 } });
    expect(await legacy.clearFaults()).toBe(2);
    expect(await legacy.faults()).toEqual([]);
    expect(await legacy.clearFaults()).toBe(0);
  });

  test('a bad fault is ControlError 400 VALIDATION_FAILED with exactly the server’s message', async () => {
    const { json, jsonUrl } = await started();
    const bad = { match: { transport: 'listen' as const }, action: { type: 'hold' as const } };
    const raw = await fetch(`${jsonUrl}/_sim/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(bad),
    });
    const served = (await raw.json()) as { status: string; code: string; message: string };
    expect(served.status).toBe('fail');

    const error = (await json.addFault(bad).catch((e: unknown) => e)) as ControlError;
    expect(error).toBeInstanceOf(ControlError);
    expect(error.status).toBe(400);
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.message).toBe(served.message);
    expect(error.message).toContain('the json simulator has no "listen" transport');
    expect(error.target).toEqual({ method: 'POST', url: `${jsonUrl}/_sim/faults` });
    expect(await json.faults()).toEqual([]);
  });

  test('closeConnections() closes matching sessions with the code, which the journal records', async () => {
    const { json, jsonUrl } = await started();
    const session = await openEventStream(jsonUrl);
    expect((await json.state()).users.testuser?.sockets).toBe(1);
    expect(await json.closeConnections({ user: 'testuser', transport: 'event-stream', code: 4001 })).toBe(1);
    expect(await session.closed).toBe(4001);
    const page = await json.waitFor({ kind: 'closed', user: 'testuser' }, { timeout: 2000 });
    expect(page.entries).toEqual([
      expect.objectContaining({ kind: 'closed', transport: 'event-stream', code: 4001 }),
    ]);
    expect(await json.closeConnections()).toBe(0);
  });

  test('expireTokens() makes a user’s token answer 401 until the user authenticates again', async () => {
    const { json, jsonUrl } = await started();
    expect(await json.expireTokens('testuser')).toEqual(['testuser']);
    expect((await get(`${jsonUrl}/customerapi/events?lastEventId=0`, TOKEN)).status).toBe(401);
    const auth = await fetch(`${jsonUrl}/customerapi/authenticate/subscription`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ key: 'testuser', secret: 'testpassword' }),
    });
    expect(auth.status).toBe(200);
    await json.post({ channel: 'RaceDayTrot', date: '2024-05-11', payload: {} });
    expect((await get(`${jsonUrl}/customerapi/events?lastEventId=0`, TOKEN)).status).toBe(200);
    expect(await json.expireTokens()).toEqual(['testuser', 'alluser']);
  });

  test('on both at once: the pair resets, clears faults and moves both clocks', async () => {
    const sims = await started();
    await sims.json.addFault({ match: { transport: 'events' }, action: { type: 'hold' } });
    await sims.legacy.addFault({ match: { transport: 'listen' }, action: { type: 'hold' } });
    expect(await sims.control.clearFaults()).toEqual({ json: 1, legacy: 1 });
    const moved = await sims.control.advanceClock(1000);
    expect([moved.json.clockOffsetMs, moved.legacy.clockOffsetMs]).toEqual([1000, 1000]);
    const reset = await sims.control.reset();
    expect(reset.json.eventIds).toBe('restart');
    expect(reset.legacy.cleared).toMatchObject({ queuedMessages: 0 });
    expect(await sims.control.closeConnections()).toEqual({ json: 0, legacy: 0 });
    expect(await sims.control.expireTokens('testuser')).toEqual({ json: ['testuser'], legacy: ['testuser'] });
  });
});
