import request from 'supertest';
import { ManualClock, resolveSettings } from '@racedata/core';
import { createLegacySimulator } from '../src';
import { AUTH, closeAll, createProbed, startSim, waitFor } from './support';

afterEach(closeAll);

describe('createLegacySimulator', () => {
  it('serves health and JSON 404s on a real port', async () => {
    const { base } = await startSim();
    const health = await fetch(`${base}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok', simulator: 'legacy' });
    const missing = await fetch(`${base}/customerapi/nothing`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toMatch(/application\/json/);
  });

  it('uses the legacy defaults', async () => {
    const defaults = resolveSettings('legacy', {});
    expect(defaults.port).toBe(8080);
    expect(defaults.longPollTimeoutMs).toBe(60_000);
    expect(defaults.legacyQueueRetentionMs).toBe(24 * 60 * 60 * 1000);
    // The factory takes them: the built-in user's token is accepted and a listen is held 60 s.
    const clock = new ManualClock();
    const { sim } = createProbed({}, { clock });
    let status: number | undefined;
    const listen = request(sim.app)
      .get('/customerapi/channels/listen')
      .set(AUTH)
      .then((res) => (status = res.status));
    await waitFor(() => clock.pendingTimers > 0, 'the held listen');
    clock.advance(59_999);
    await new Promise((resolve) => setImmediate(resolve));
    expect(status).toBeUndefined();
    clock.advance(1);
    await listen;
    expect(status).toBe(204);
  });

  it('closes idempotently, also when it never listened', async () => {
    const never = createLegacySimulator();
    await never.close();
    const run = await startSim();
    await Promise.all([run.sim.close(), run.sim.close()]);
    expect(run.sim.server.listening).toBe(false);
  });
});
