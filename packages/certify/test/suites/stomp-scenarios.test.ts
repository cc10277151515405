import { connectScenario } from '../../src/suites/stomp/connect';
import { heartBeatsScenario } from '../../src/suites/stomp/heart-beats';
import { reconnectScenario } from '../../src/suites/stomp/reconnect';
import { subscribeScenario } from '../../src/suites/stomp/subscribe';
import { authRequest, closed, FakeContext, opened, upgrade, USER } from './fake-context';

const STOMP = '/api/v1/channels/connect';

/** A client that authenticated and upgraded with its bearer token. */
function connected(): FakeContext {
  return new FakeContext()
    .after(100, authRequest())
    .after(150, upgrade(STOMP, 'bearer'))
    .after(151, opened('stomp'));
}

/** Journal answers: every probe injected from now on is delivered when `subscribed()` says so. */
function deliverProbes(fake: FakeContext, subscribed: (at: number) => boolean): void {
  fake.on('inject', (f) => {
    const payloadKey = (f.calls[f.calls.length - 1] as string).slice('inject '.length);
    if (subscribed(f.time)) {
      f.journalEntries.push({
        seq: f.journalEntries.length + 1,
        kind: 'delivered',
        user: USER,
        payloadKey,
        time: new Date(f.time).toISOString(),
      });
    }
  });
}

describe('stomp suite scenarios (virtual time)', () => {
  it('passes a client that authenticates and sends its bearer token on the upgrade', async () => {
    const results = await connectScenario.run(connected().context());
    expect(results.map((r) => [r.id, r.status])).toEqual([
      ['auth-key-secret', 'pass'],
      ['connects-with-bearer', 'pass'],
    ]);
  });

  it('fails connects-with-bearer for upgrades without the header (refused, no session)', async () => {
    const fake = new FakeContext()
      .after(100, authRequest())
      .after(150, upgrade(STOMP, 'none'))
      .after(1_150, upgrade(STOMP, 'none'));
    const [, bearer] = await connectScenario.run(fake.context());
    expect(bearer?.status).toBe('fail');
    expect(bearer?.summary).toMatch(/without Authorization: Bearer \(auth: none\)/);
  });

  it('proves the subscription by a NonDurable probe the journal shows delivered', async () => {
    const fake = connected();
    deliverProbes(fake, () => true);
    const [pass] = await subscribeScenario.run(fake.context());
    expect(pass?.status).toBe('pass');
    const never = connected();
    deliverProbes(never, () => false);
    const [fail] = await subscribeScenario.run(never.context());
    expect(fail?.status).toBe('fail');
    expect(fail?.summary).toMatch(/^none of \d+ NonDurable messages reached it/);
  });

  it('fails heart-beats for a session the server timed out, passes one kept open', async () => {
    const silent = connected().after(2_200, closed('stomp', 1008));
    const [fail] = await heartBeatsScenario.run(silent.context());
    expect(fail?.status).toBe('fail');
    expect(fail?.summary).toMatch(/timed its session out \(1008\)/);
    const [pass] = await heartBeatsScenario.run(connected().context());
    expect(pass?.status).toBe('pass');
    expect(pass?.summary).toMatch(/stayed open 4\.0 s \(3 heart-beat intervals of 1000 ms/);
  });

  it('fails reconnect-after-close for a client back in time but not subscribed again', async () => {
    const resubscribes = (again: boolean) => {
      const fake = connected().on('closeConnections', (f) => {
        closedAt = f.time;
        f.after(5, closed('stomp', 4000)).after(500, upgrade(STOMP, 'bearer')).after(501, opened('stomp'));
      });
      let closedAt = Number.POSITIVE_INFINITY;
      deliverProbes(fake, (at) => again || at < closedAt);
      return fake;
    };
    const [pass] = await reconnectScenario.run(resubscribes(true).context());
    expect(pass?.status).toBe('pass');
    const [fail] = await reconnectScenario.run(resubscribes(false).context());
    expect(fail?.status).toBe('fail');
    expect(fail?.summary).toMatch(/^reconnected after 0\.5 s but never subscribed again/);
  });
});
