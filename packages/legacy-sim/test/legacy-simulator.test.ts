import { createLegacySimulator, legacyStartupLines } from '../src';
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

  it('describes endpoints, users, tokens and channels for the start-up output', async () => {
    const run = await startSim();
    const address = run.sim.server.address();
    if (address === null || typeof address === 'string') throw new Error('not listening');
    const text = legacyStartupLines(address, run.sim.users, run.sim.catalog).join('\n');
    expect(text).toContain(`http://127.0.0.1:${address.port}`);
    expect(text).toContain('/api/v1/channels/connect');
    expect(text).toContain('key testuser, secret testpassword, token dGVzdHVzZXI=');
    expect(text).toContain('TimeToStart');
    expect(
      legacyStartupLines(
        { address: '0.0.0.0', family: 'IPv4', port: 8080 },
        run.sim.users,
        run.sim.catalog,
      )[0],
    ).toBe('legacy simulator listening on http://localhost:8080');
  });
});
