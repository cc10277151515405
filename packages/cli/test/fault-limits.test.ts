import { closeAll } from '@racedata/test-support';
import { startSimProcess, type SimProcess } from '@racedata/test-support/sim-process';
import { SseClient } from '../../../test-support/sse';

// Fault rules' bounds and the console stream's state event, against the simulator in its own process.
afterEach(closeAll);

const rule = (body: string) => ({
  match: { path: '/nowhere' },
  action: { type: 'status', status: 503, body },
});

describe('fault rules are bounded', () => {
  test('past FAULT_BODY_MAX_BYTES 413 and past FAULT_RULES_MAX 429, each naming its limit', async () => {
    const sim = await startJson({ FAULT_RULES_MAX: '2', FAULT_BODY_MAX_BYTES: '1000' });
    const post = (body: unknown) =>
      fetch(`${sim.base}/_sim/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    // Counted in bytes as served: 501 two-byte characters are 1,002 bytes.
    const tooLarge = await post(rule('Å'.repeat(501)));
    expect(tooLarge.status).toBe(413);
    expect(await tooLarge.json()).toEqual({
      status: 'fail',
      code: 'PAYLOAD_TOO_LARGE',
      message: expect.stringContaining('FAULT_BODY_MAX_BYTES'),
    });
    expect((await post(rule('Å'.repeat(500)))).status).toBe(201);
    expect((await post(rule('x'))).status).toBe(201);
    const tooMany = await post(rule('y'));
    expect(tooMany.status).toBe(429);
    expect(await tooMany.json()).toEqual({
      status: 'fail',
      code: 'FAULT_RULES_LIMIT',
      message: expect.stringContaining('FAULT_RULES_MAX'),
    });
    await fetch(`${sim.base}/_sim/faults/f2`, { method: 'DELETE' });
    expect((await post(rule('z'))).status).toBe(201);
  });

  test("the console stream's state carries rules without their bodies, and only when it changes", async () => {
    const sim = await startJson();
    const body = 'x'.repeat(60_000);
    const added = await fetch(`${sim.base}/_sim/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(rule(body)),
    });
    expect(added.status).toBe(201);
    const stream = await SseClient.open(`${sim.base}/_sim/stream`);
    try {
      const first = await stream.next((e) => e.event === 'state');
      expect(first.data.length).toBeLessThan(2000);
      const state = JSON.parse(first.data) as { time: string; faults: Array<{ action: object }> };
      expect(state.time).toEqual(expect.any(String));
      expect(state.faults).toEqual([
        expect.objectContaining({ action: { type: 'status', status: 503, bodyBytes: 60_000 } }),
      ]);
      // GET /_sim/faults is where the body is.
      const listed = (await (await fetch(`${sim.base}/_sim/faults`)).json()) as {
        rules: Array<{ action: { body: string } }>;
      };
      expect(listed.rules[0]?.action.body).toBe(body);
      // The state is looked at each second (real time): unchanged, it is not sent again, where
      // its ticking `time` used to make every look a new state. Absence takes real time to see.
      await new Promise((resolve) => setTimeout(resolve, 2500));
      expect(stream.events.filter((e) => e.event === 'state')).toHaveLength(1);
      // A change is sent.
      await fetch(`${sim.base}/_sim/faults`, { method: 'DELETE' });
      const changed = await stream.next((e) => e.event === 'state' && e !== first);
      expect(JSON.parse(changed.data)).toMatchObject({ faults: [] });
    } finally {
      stream.close();
    }
  });
});

/** The JSON simulator as its own process, without replay, logging warnings and worse as JSON. */
function startJson(env: Record<string, string> = {}): Promise<SimProcess> {
  return startSimProcess('json', ['--no-replay'], { LOG_LEVEL: 'warn', LOG_FORMAT: 'json', ...env });
}
