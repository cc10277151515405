import { createLegacySimulator } from '../src';
import { closeAll, startSim } from './support';

afterEach(closeAll);

describe('createLegacySimulator', () => {
  it('serves health and JSON 404s on a real port', async () => {
    const { base } = await startSim();
    const health = await fetch(`${base}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok', simulator: 'legacy' });
    const missing = await fetch(`${base}/customerapi/nothing`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toMatch(/application\/json/);
  });

  it('uses the legacy defaults', () => {
    const sim = createLegacySimulator();
    expect(sim.settings.port).toBe(8080);
    expect(sim.settings.longPollTimeoutMs).toBe(60_000);
    expect(sim.settings.legacyQueueRetentionMs).toBe(24 * 60 * 60 * 1000);
    expect(sim.users.byToken('dGVzdHVzZXI=')?.key).toBe('testuser');
    return sim.close();
  });

  it('closes idempotently, also when it never listened', async () => {
    const never = createLegacySimulator();
    await never.close();
    const run = await startSim();
    await Promise.all([run.sim.close(), run.sim.close()]);
    expect(run.sim.server.listening).toBe(false);
  });
});
