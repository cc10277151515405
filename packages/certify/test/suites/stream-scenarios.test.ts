import { connectScenario } from '../../src/suites/stream/connect';
import { pingsScenario } from '../../src/suites/stream/pings';
import { reauthScenario } from '../../src/suites/stream/reauth';
import { reconnectScenario } from '../../src/suites/stream/reconnect';
import { refusedScenario } from '../../src/suites/stream/refused';
import { transientScenario } from '../../src/suites/stream/transient';
import { authRequest, closed, FakeContext, opened, upgrade } from './fake-context';

const STREAM = '/customerapi/event-stream';
const status = (results: ReadonlyArray<{ id: string; status: string }>) =>
  results.map((r) => [r.id, r.status]);

/** A client that authenticated, connected and sent its token `tokenAfterMs` later. */
function connected(tokenAfterMs = 20): FakeContext {
  return new FakeContext()
    .after(100, authRequest())
    .after(150, upgrade(STREAM))
    .after(150 + tokenAfterMs, opened('event-stream'));
}

describe('stream suite scenarios (virtual time)', () => {
  it('passes a client that authenticates, connects and sends its token at once', async () => {
    const results = await connectScenario.run(connected().context());
    expect(status(results)).toEqual([
      ['auth-key-secret', 'pass'],
      ['token-within-deadline', 'pass'],
    ]);
    expect(results[1]?.summary).toBe('sent its token 20 ms after connecting (deadline 3000 ms)');
  });

  it('fails a first connection refused for a late token, though a later one authenticated', async () => {
    const fake = new FakeContext()
      .after(100, authRequest())
      .after(150, upgrade(STREAM))
      .after(3_200, upgrade(STREAM))
      .after(3_210, opened('event-stream'));
    const [auth, deadline] = await connectScenario.run(fake.context());
    expect(auth?.status).toBe('pass');
    expect(deadline?.status).toBe('fail');
    expect(deadline?.summary).toMatch(/first connection was refused/);
  });

  it('fails auth-key-secret for a session opened without any authentication', async () => {
    const fake = new FakeContext().after(150, upgrade(STREAM)).after(170, opened('event-stream'));
    const [auth] = await connectScenario.run(fake.context());
    expect(auth?.status).toBe('fail');
    expect(auth?.summary).toMatch(/never asked for/);
  });

  it('fails ignores-ping for a session closed at the first Ping, passes one kept across three', async () => {
    const dropped = connected().after(1_180, closed('event-stream', 1000));
    const [fail] = await pingsScenario.run(dropped.context());
    expect(fail?.status).toBe('fail');
    expect(fail?.summary).toMatch(/closed its session \(code 1000\) 1\.0 s after it opened, after 1 Ping/);
    const [pass] = await pingsScenario.run(connected().context());
    expect(pass?.status).toBe('pass');
  });

  it('grades reconnect-after-close by the 5 s of the rule', async () => {
    const quick = connected().on('closeConnections', (f) => {
      f.after(5, closed('event-stream', 4000)).after(300, upgrade(STREAM)).after(320, opened('event-stream'));
    });
    expect((await reconnectScenario.run(quick.context()))[0]?.status).toBe('pass');
    const late = connected().on('closeConnections', (f) => {
      f.after(5, closed('event-stream', 4000))
        .after(5_200, upgrade(STREAM))
        .after(5_220, opened('event-stream'));
    });
    const [fail] = await reconnectScenario.run(late.context());
    expect(fail?.status).toBe('fail');
    expect(fail?.summary).toBe('no new session within 5.0 s of the server closing it');
  });

  it('passes reauth-on-auth-error only with a new authentication before the new session', async () => {
    const reauths = connected().on('closeConnections', (f) => {
      f.after(5, closed('event-stream', 4000))
        .after(300, upgrade(STREAM)) // the old token: AuthenticationError, no session
        .after(800, authRequest())
        .after(850, upgrade(STREAM))
        .after(870, opened('event-stream'));
    });
    const [pass] = await reauthScenario.run(reauths.context());
    expect(pass?.status).toBe('pass');
    expect(pass?.summary).toMatch(/after 1 connection\(s\) refused with AuthenticationError/);
    expect(reauths.calls).toEqual(['expireTokens', 'closeConnections']);

    const stubborn = connected().on('closeConnections', (f) => {
      for (let t = 300; t < 8_000; t += 1_000) f.after(t, upgrade(STREAM));
    });
    const [fail] = await reauthScenario.run(stubborn.context());
    expect(fail?.status).toBe('fail');
    expect(fail?.summary).toMatch(/never authenticated again in 8\.0 s: 8 connection\(s\) refused/);
  });

  it('grades no-hot-loop from the attempts made while upgrades are refused', async () => {
    const attempts = (everyMs: number) =>
      connected().on('closeConnections', (f) => {
        f.after(5, closed('event-stream', 4000));
        for (let t = 10; t < 4_000; t += everyMs) f.after(t, upgrade(STREAM));
        f.after(4_500, upgrade(STREAM)).after(4_520, opened('event-stream'));
      });
    const hot = attempts(100);
    const [fail] = await refusedScenario.run(hot.context());
    expect(fail?.status).toBe('fail');
    expect(fail?.summary).toMatch(/^40 attempt\(s\) in 4\.0 s while refused, at most 10 in any second/);
    // The rule is lifted whatever the verdict.
    expect(hot.calls).toEqual([
      expect.stringMatching(/^addFault .*"status":503/),
      'closeConnections',
      'deleteFault',
    ]);
    const [pass] = await refusedScenario.run(attempts(500).context());
    expect(pass?.status).toBe('pass');
    const idle = connected().on('closeConnections', (f) => f.after(5, closed('event-stream', 4000)));
    expect((await refusedScenario.run(idle.context()))[0]?.status).toBe('skip');
  });

  it('skips receives-all without --echo, saying how to get it graded', async () => {
    const [skip] = await transientScenario.run(connected().context());
    expect(skip?.status).toBe('skip');
    expect(skip?.summary).toMatch(/--echo stdout/);
  });
});
