import WebSocket from 'ws';
import { startCertifyServer, type CertifyServer } from '../src/server/certify-server';
import { CERTIFY_TIMINGS } from '../src/timings';
import type { TrafficEvent } from '../src/types';

let server: CertifyServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function authenticate(s: CertifyServer): Promise<string> {
  const res = await fetch(`${s.base}/customerapi/authenticate/subscription`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ key: s.user.key, secret: s.user.secret }),
  });
  expect(res.status).toBe(200);
  return res.headers.get('authorization') ?? '';
}

/** Nothing the client sent as a credential may appear anywhere in the traffic. */
function expectNoCredential(s: CertifyServer, ...secrets: string[]) {
  const text = JSON.stringify(s.traffic.all());
  for (const secret of [s.user.secret, s.user.fixedToken, ...secrets]) expect(text).not.toContain(secret);
}

describe('certify server (JSON)', () => {
  it('records each request with its time, query, auth scheme, user, status and the eventIds a page carried', async () => {
    server = await startCertifyServer({ simulator: 'json', timings: CERTIFY_TIMINGS });
    const s = server;
    const authorization = await authenticate(s);
    const token = authorization.replace(/^Bearer /, '');
    await s.control.postJson({
      channel: 'RaceDayTrot',
      date: '2026-11-22',
      trackId: 5,
      raceNr: 1,
      payload: {},
    });
    await s.control.postJson({
      channel: 'RaceDayTrot',
      date: '2026-11-22',
      trackId: 5,
      raceNr: 2,
      payload: {},
    });
    const page = await fetch(`${s.base}/customerapi/events?lastEventId=0&limit=1&token=${token}`, {
      headers: { authorization },
    });
    expect(page.status).toBe(200);
    await page.arrayBuffer();
    const refused = await fetch(`${s.base}/customerapi/events?lastEventId=0`, {
      headers: { authorization: 'Bearer not-a-token' },
    });
    await refused.arrayBuffer();
    const requests = s.traffic.of('request');
    // The control calls (POST /api/message) are certify's own and are not the client's traffic.
    expect(requests.map((r) => [r.method, r.path, r.auth, r.user, r.status])).toEqual([
      ['POST', '/customerapi/authenticate/subscription', 'none', undefined, 200],
      ['GET', '/customerapi/events', 'bearer', s.user.key, 200],
      ['GET', '/customerapi/events', 'bearer', undefined, 401],
    ]);
    expect(requests[1]).toMatchObject({
      query: { lastEventId: '0', limit: '1' },
      answered: { messages: 1, eventIds: [1], hasMore: true },
    });
    for (const r of requests) expect(r.endedAt).toBeGreaterThanOrEqual(r.at);
    expectNoCredential(s, token);
  });

  it('records a held poll the client gave up on as aborted', async () => {
    server = await startCertifyServer({ simulator: 'json', timings: CERTIFY_TIMINGS });
    const s = server;
    const authorization = await authenticate(s);
    const since = Date.now();
    const held = s.traffic.next('request', (r) => r.path === '/customerapi/events', {
      timeoutMs: 5_000,
      since,
    });
    const leave = new AbortController();
    const poll = fetch(`${s.base}/customerapi/events?lastEventId=0`, {
      headers: { authorization },
      signal: leave.signal,
    });
    // The poll is held (nothing stored); the client leaves before the long-poll timeout.
    while (!(await heldPolls(s))) await new Promise((resolve) => setImmediate(resolve));
    leave.abort();
    await expect(poll).rejects.toThrow();
    await expect(held).resolves.toMatchObject({ status: 'aborted' });
  });

  it('records the upgrade and the session the event stream opened and closed, without the token', async () => {
    server = await startCertifyServer({ simulator: 'json', timings: CERTIFY_TIMINGS });
    const s = server;
    const token = (await authenticate(s)).replace(/^Bearer /, '');
    const ws = new WebSocket(`${s.wsBase}/customerapi/event-stream`);
    ws.on('open', () => ws.send(token));
    const opened = await s.traffic.next('session-open', () => true, { timeoutMs: 5_000, since: 0 });
    expect(opened).toMatchObject({ user: s.user.key, transport: 'event-stream' });
    expect(await s.control.closeConnections(4001)).toBe(1);
    const closed = await s.traffic.next('session-closed', () => true, { timeoutMs: 5_000, since: 0 });
    expect(closed).toMatchObject({ user: s.user.key, transport: 'event-stream', code: 4001 });
    expect(s.traffic.of('upgrade')).toEqual([
      { kind: 'upgrade', at: expect.any(Number), path: '/customerapi/event-stream', auth: 'none' },
    ]);
    expectNoCredential(s, token);
  });
});

/** Whether the certified user has a long poll held, as GET /_sim/state tells it. */
async function heldPolls(s: CertifyServer): Promise<boolean> {
  const state = (await (await fetch(`${s.base}/_sim/state`)).json()) as {
    users: Record<string, { heldPolls: number }>;
  };
  return (state.users[s.user.key]?.heldPolls ?? 0) > 0;
}

describe('certify server (legacy)', () => {
  it('names a Basic authentication and records a listen answer as one message', async () => {
    server = await startCertifyServer({ simulator: 'legacy', timings: CERTIFY_TIMINGS });
    const s = server;
    const basic = Buffer.from(`${s.user.key}:${s.user.secret}`).toString('base64');
    const auth = await fetch(`${s.base}/authenticate`, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}` },
    });
    expect(auth.status).toBe(200);
    const authorization = auth.headers.get('authorization') ?? '';
    await s.control.inject('id', true, '<RaceDay date="2026-11-22"/>', 'race-1');
    const listen = await fetch(`${s.base}/customerapi/channels/listen`, { headers: { authorization } });
    expect(listen.status).toBe(200);
    await listen.arrayBuffer();
    const events: TrafficEvent[] = [...s.traffic.all()];
    expect(
      events.map((e) => (e.kind === 'request' ? [e.path, e.auth, e.user, e.status, e.answered] : e.kind)),
    ).toEqual([
      ['/authenticate', 'basic', s.user.key, 200, undefined],
      ['/customerapi/channels/listen', 'bearer', s.user.key, 200, { messages: 1, eventIds: [] }],
    ]);
    expectNoCredential(s, basic, authorization.replace(/^Bearer /, ''));
  });

  it('answers a fault rule the scenarios add, and records its status', async () => {
    server = await startCertifyServer({ simulator: 'legacy', timings: CERTIFY_TIMINGS });
    const s = server;
    const id = await s.control.addFault({
      match: { transport: 'listen' },
      action: { type: 'status', status: 503, retryAfter: 1 },
      times: 1,
    });
    const authorization = await authenticate(s);
    const res = await fetch(`${s.base}/customerapi/channels/listen`, { headers: { authorization } });
    expect([res.status, res.headers.get('retry-after')]).toEqual([503, '1']);
    await res.arrayBuffer();
    expect(s.traffic.of('request').at(-1)).toMatchObject({ status: 503 });
    await expect(s.control.deleteFault(id)).rejects.toThrow(
      /control call DELETE \/_sim\/faults\/.* failed: HTTP 404/,
    );
  });

  it("records what a STOMP CONNECT negotiated, from the simulator's own session line, without the token", async () => {
    server = await startCertifyServer({ simulator: 'legacy', timings: CERTIFY_TIMINGS });
    const s = server;
    const authorization = await authenticate(s);
    const ws = new WebSocket(`${s.wsBase}/api/v1/channels/connect`, ['v12.stomp'], {
      headers: { authorization },
    });
    // Offers to beat every 2.5 s and wants none: the server expects 2500 and sends nothing.
    ws.on('open', () => ws.send('CONNECT\naccept-version:1.2\nheart-beat:2500,0\n\n\0'));
    const connected = await s.traffic.next('stomp-connected', () => true, { timeoutMs: 5_000, since: 0 });
    ws.close();
    expect(connected).toEqual({
      kind: 'stomp-connected',
      at: expect.any(Number),
      user: s.user.key,
      version: '1.2',
      expectEveryMs: 2500,
      sendEveryMs: 0,
    });
    const open = s.traffic.of('session-open')[0];
    expect(open?.at).toBeLessThanOrEqual(connected?.at ?? 0);
    expectNoCredential(s, authorization.replace(/^Bearer /, ''));
  });
});
