/** survives-restart on the session suites, on virtual time: the outage is the fake front door's. */
import { restartScenario } from '../../src/suites/stream/restart';
import type { CheckResult } from '../../src/types';
import { FakeContext, opened } from './fake-context';

/** A session open when the simulator goes away; `client` schedules what it does (ms after it went). */
function restarted(attempts: number[], client: (fake: FakeContext) => void = () => undefined): FakeContext {
  const fake = new FakeContext().after(10, opened('event-stream')).on('outage', client);
  fake.outageAttempts = attempts;
  return fake;
}

async function one(fake: FakeContext): Promise<CheckResult> {
  const [result] = await restartScenario.run(fake.context());
  if (!result) throw new Error('no result');
  return result;
}

describe('survives-restart on a session suite (virtual time)', () => {
  it('passes a client back within 5 s of the return that retried at most 2 times a second', async () => {
    const result = await one(restarted([2_700, 3_500, 4_400], (f) => f.after(5_800, opened('event-stream'))));
    expect(result).toMatchObject({
      status: 'pass',
      summary:
        'back 0.8 s after the simulator returned (3 attempt(s) in the last 2.5 s away, at most 2 in any second)',
    });
    expect(result.evidence.map((e) => e.what)).toEqual(
      expect.arrayContaining([
        'the simulator went away: 1 connection(s) dropped, nothing listens on its port (refused)',
        'its port takes connections again and closes each at once',
        'the simulator answers again, with its state',
      ]),
    );
  });

  it('fails a client that retries faster than 2 times a second while the simulator is away', async () => {
    const hot = Array.from({ length: 40 }, (_, i) => 2_500 + i * 50);
    const result = await one(restarted(hot, (f) => f.after(5_100, opened('event-stream'))));
    expect(result.status).toBe('fail');
    expect(result.summary).toMatch(/^retried 20 times within one second while the simulator was away/);
  });

  it('fails a client that gave up: no session within 5 s of the return', async () => {
    const result = await one(restarted([2_600], (f) => f.after(10_500, opened('event-stream'))));
    expect(result.status).toBe('fail');
    expect(result.summary).toMatch(/^gave up: no new session within 5\.0 s of the simulator's return/);
  });

  it('skips when certify could not bring the simulator back', async () => {
    const fake = restarted([]);
    fake.outageError = 'listen EADDRINUSE';
    const result = await one(fake);
    expect(result).toMatchObject({
      status: 'skip',
      summary: 'certify could not bring the simulator back: listen EADDRINUSE',
    });
  });
});
