import fc from 'fast-check';
import WebSocket from 'ws';
import { TOKENS } from '@racedata/test-support';
import { WsClient, closeAll, connectAuthenticated, event, startSim } from './helpers';

afterEach(closeAll);

/** Resolves once ws answered a ping, i.e. once every earlier message went through the server. */
function roundTrip(client: WsClient): Promise<'pong' | 'closed'> {
  return Promise.race([
    new Promise<'pong'>((resolve) => {
      client.ws.once('pong', () => resolve('pong'));
      if (client.ws.readyState === WebSocket.OPEN) client.ws.ping();
    }),
    client.closed.then(() => 'closed' as const),
  ]);
}

describe('event stream against abusive clients', () => {
  it('refuses a session past WS_MAX_SESSIONS_PER_USER with 1008 naming the limit, and takes one once a seat is free', async () => {
    const s = await startSim({ wsMaxSessionsPerUser: 2, wsAuthTimeoutMs: 5000 });
    const first = await connectAuthenticated(s.wsUrl, TOKENS.testuser);
    await connectAuthenticated(s.wsUrl, TOKENS.testuser);
    const third = await WsClient.connect(s.wsUrl);
    expect((await third.next()).type).toBe('Connection');
    third.send(TOKENS.testuser);
    const refusal = await third.next();
    expect(refusal.type).toBe('AuthenticationError');
    expect(refusal.message).toBe('Too many sessions for this user (WS_MAX_SESSIONS_PER_USER 2)');
    expect(await third.closed).toEqual({
      code: 1008,
      reason: 'Too many sessions for this user (WS_MAX_SESSIONS_PER_USER 2)',
    });
    // Another user has seats of its own.
    await connectAuthenticated(s.wsUrl, TOKENS.alluser);

    first.ws.close();
    await first.closed;
    // The server may see the close a moment after the client does; each attempt is awaited.
    let seated = false;
    for (let attempt = 0; attempt < 50 && !seated; attempt++) {
      const next = await WsClient.connect(s.wsUrl);
      await next.next();
      next.send(TOKENS.testuser);
      seated = (await next.next()).type === 'Authenticated';
    }
    expect(seated).toBe(true);
  });

  it('ignores whatever an authenticated client sends and keeps delivering', async () => {
    const s = await startSim({ wsPingIntervalMs: 60_000 });
    const client = await connectAuthenticated(s.wsUrl, TOKENS.testuser);
    for (let i = 0; i < 1000; i++) client.send(i % 2 === 0 ? `junk ${i}` : Buffer.from([0, 255, i % 256]));
    expect(await roundTrip(client)).toBe('pong');
    s.probe.publish(event('TimeToStartTrot', { payload: { still: 'here' } }));
    expect((await client.next('Data')).data?.payload).toEqual({ still: 'here' });
  });

  it('closes with 1009 on a message above 64 KiB', async () => {
    const s = await startSim();
    const client = await WsClient.connect(s.wsUrl);
    client.send('x'.repeat(64 * 1024 + 1));
    expect((await client.closed).code).toBe(1009);
  });

  it('ends every session fed random messages with 1008 (or 1007/1009 from ws) or keeps it, and keeps serving', async () => {
    const s = await startSim({ wsAuthTimeoutMs: 5000, wsPingIntervalMs: 60_000 });
    const message = fc.oneof(
      fc.string({ maxLength: 40 }).map((text) => ({ text })),
      fc.uint8Array({ maxLength: 64 }).map((bytes) => ({ bytes, binary: true })),
      fc.uint8Array({ minLength: 1, maxLength: 8 }).map((bytes) => ({
        bytes: Uint8Array.from([0xff, ...bytes]),
        binary: false,
      })),
      fc.constantFrom({ text: '{"token":' }, { text: '{"authorization":"Bearer "}' }, { text: 'Bearer' }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.boolean(),
        fc.array(message, { minLength: 1, maxLength: 6 }),
        async (authFirst, sent) => {
          const client = authFirst
            ? await connectAuthenticated(s.wsUrl, TOKENS.testuser)
            : await WsClient.connect(s.wsUrl);
          for (const m of sent) {
            if (client.ws.readyState !== WebSocket.OPEN) break;
            if ('text' in m) client.send(m.text);
            else client.ws.send(Buffer.from(m.bytes), { binary: m.binary });
          }
          if ((await roundTrip(client)) === 'closed' || !authFirst) {
            // Unauthenticated, the first message was the token and it was not a valid one.
            const { code } = await client.closed;
            expect([1007, 1008]).toContain(code);
          } else {
            s.probe.publish(event('TimeToStartTrot', { payload: { ok: 1 } }));
            expect((await client.next('Data')).data?.payload).toEqual({ ok: 1 });
          }
          client.terminate();
          await client.closed;
        },
      ),
      { numRuns: 60 },
    );
    expect((await fetch(`${s.base}/health`)).status).toBe(200);
    const fresh = await connectAuthenticated(s.wsUrl, TOKENS.testuser);
    s.probe.publish(event('TimeToStartTrot', { payload: { fresh: true } }));
    expect((await fresh.next('Data')).data?.payload).toEqual({ fresh: true });
  });
});
