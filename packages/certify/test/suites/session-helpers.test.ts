import { gradeEchoes } from '../../src/suites/session/echo';
import { mostInWindow } from '../../src/suites/session/rate';
import { STREAM_CHECKS } from '../../src/suites/stream/checks';
import { FakeContext } from './fake-context';

describe('mostInWindow', () => {
  it('counts over a sliding second, so a burst across a second boundary is seen', () => {
    expect(mostInWindow([], 1000)).toBe(0);
    expect(mostInWindow([900, 1100, 1200], 1000)).toBe(3);
    // Every 500 ms: two in any half-open second.
    expect(mostInWindow([0, 500, 1000, 1500], 1000)).toBe(2);
  });
});

describe('gradeEchoes', () => {
  const info = STREAM_CHECKS.receivesAll;

  it('fails naming what the client did not print, and ignores what was sent while it was away', async () => {
    const fake = new FakeContext();
    const ctx = fake.context();
    const t = fake.time;
    fake
      .after(50, { kind: 'client-line', line: 'id-1' })
      .after(60, { kind: 'client-line', line: 'processed id-3' });
    const sent = [
      { key: 'id-1', at: t, connected: true },
      { key: 'id-2', at: t + 10, connected: false },
      { key: 'id-3', at: t + 20, connected: true },
      { key: 'id-4', at: t + 30, connected: true },
    ];
    const result = await gradeEchoes(ctx, info, sent, t, []);
    expect(result.status).toBe('fail');
    expect(result.summary).toBe('printed 2 of 3 messages sent while it was connected; missing id-4');
  });

  it('passes when every message sent while connected was printed', async () => {
    const fake = new FakeContext();
    const t = fake.time;
    fake.after(50, { kind: 'client-line', line: 'a' }).after(60, { kind: 'client-line', line: 'b' });
    const sent = [
      { key: 'a', at: t, connected: true },
      { key: 'b', at: t, connected: true },
    ];
    expect((await gradeEchoes(fake.context(), info, sent, t, [])).status).toBe('pass');
  });
});
