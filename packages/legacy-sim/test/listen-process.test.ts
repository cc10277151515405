/**
 * "A client that hangs up mid-poll loses nothing", checked from where clients stand: the
 * simulator is the racedata-sim command in a process of its own, the pollers are here. With the
 * pollers in the simulator's process the two share one event loop, and the race that lost
 * messages (the client's FIN arriving between the simulator's last read and its write) never
 * happens; that is how an in-process storm passed while this one lost a tenth of the messages.
 */
import http from 'node:http';
import { closeAll, TOKENS } from '@racedata/test-support';
import { startSimProcess } from '@racedata/test-support/sim-process';
import { stormLegacyListen } from './listen-storm';

afterEach(closeAll);

interface UserState {
  queueDepth: number;
  unconfirmed: number;
  heldPolls: number;
}

it.each([
  ['100 pollers destroying 0-20 ms after sending, beside 3 keep-alive pollers', 100, 3, 1200, 21],
  ['50 pollers destroying 0-20 ms after sending, control plane off', 50, 0, 500, 22],
])(
  '%s: every message reaches a complete answer exactly once',
  async (_why, pollers, honestPollers, messages, seed) => {
    const controlOff = honestPollers === 0;
    const sim = await startSimProcess(
      'legacy',
      ['--long-poll-timeout', '300'],
      controlOff ? { CONTROL_API: 'off' } : {},
    );
    const result = await stormLegacyListen({
      base: sim.base,
      token: TOKENS.testuser,
      messages,
      pollers,
      honestPollers,
      maxAbortMs: 20,
      burst: 10,
      seed,
    });
    expect(result).toMatchObject({ lost: 0, duplicates: 0 });
    expect(result.aborted).toBeGreaterThan(pollers);
    expect(result.rudeReceived).toBeGreaterThan(0);
    if (controlOff) return;
    const state = (await (await fetch(`${sim.base}/_sim/state`)).json()) as {
      users: Record<string, UserState>;
    };
    expect(state.users.testuser).toMatchObject({ queueDepth: 0, unconfirmed: 0 });
  },
  90_000,
);

it('a message a keep-alive client has read leaves queueDepth at once and is unconfirmed until its next request', async () => {
  const sim = await startSimProcess('legacy', ['--long-poll-timeout', '300']);
  const base = sim.base;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const users = async () =>
    ((await (await fetch(`${base}/_sim/state`)).json()) as { users: Record<string, UserState> }).users
      .testuser;
  try {
    const injected = await fetch(`${base}/customerapi/channel/id/Durable?payloadKey=one`, {
      method: 'POST',
      headers: { 'content-type': 'text/xml' },
      body: '<one/>',
    });
    expect(injected.status).toBe(200);
    expect(await users()).toMatchObject({ queueDepth: 1, unconfirmed: 0 });
    expect(await listen(base, agent)).toEqual({ status: 200, body: '"<one/>"' });
    // Read, but the connection has not shown it yet: no longer queued, not yet delivered.
    expect(await users()).toMatchObject({ queueDepth: 0, unconfirmed: 1 });
    // The next request on the same connection is that evidence.
    expect(await listen(base, agent)).toEqual({ status: 204, body: '' });
    expect(await users()).toMatchObject({ queueDepth: 0, unconfirmed: 0 });
  } finally {
    agent.destroy();
  }
});

function listen(base: string, agent: http.Agent): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      `${base}/customerapi/channels/listen`,
      { agent, headers: { authorization: `Bearer ${TOKENS.testuser}` } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
  });
}
