/** The traffic log under a flood of echo lines: bounded, quick, and the rest of the traffic kept. */
import { TrafficLog } from '../src/server/traffic-log';

describe('TrafficLog', () => {
  it('keeps a flood of client lines under their own cap, never pushing requests and sessions out', async () => {
    const log = new TrafficLog(1_000, 100);
    log.record({ kind: 'session-open', at: 1, user: 'u', transport: 'event-stream' });
    const waited = log.next('client-line', (e) => e.line === 'id-199999', { timeoutMs: 5_000 });
    for (let n = 0; n < 200_000; n++) log.record({ kind: 'client-line', at: 2 + n, line: `id-${n}` });
    expect(log.of('session-open')).toHaveLength(1);
    expect(log.of('client-line').length).toBeLessThanOrEqual(110);
    expect(log.of('client-line').at(-1)?.line).toBe('id-199999');
    expect((await waited)?.line).toBe('id-199999');
    expect(log.all()[0]).toMatchObject({ kind: 'session-open' });
    log.stop();
  });

  it('drops the oldest traffic past its cap, a tenth at a time', () => {
    const log = new TrafficLog(100, 10);
    for (let n = 0; n < 1_000; n++) log.record({ kind: 'upgrade', at: n, path: '/x', auth: 'none' });
    const kept = log.of('upgrade');
    expect(kept.length).toBeGreaterThanOrEqual(100);
    expect(kept.length).toBeLessThanOrEqual(110);
    expect(kept.at(-1)?.at).toBe(999);
    log.stop();
  });
});
