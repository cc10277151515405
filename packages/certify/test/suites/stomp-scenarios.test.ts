import { connectScenario } from '../../src/suites/stomp/connect';
import { heartBeatsScenario, MAX_WATCH_MS, watchFor } from '../../src/suites/stomp/heart-beats';
import { reconnectScenario } from '../../src/suites/stomp/reconnect';
import { subscribeScenario } from '../../src/suites/stomp/subscribe';
import { authRequest, closed, FakeContext, opened, stompConnected, upgrade, USER } from './fake-context';

const STOMP = '/api/v1/channels/connect';

/** A client that authenticated, upgraded with its bearer token and negotiated these heart-beats. */
function connected(expectEveryMs = 1_000, version = '1.2'): FakeContext {
  return new FakeContext()
    .after(100, authRequest())
    .after(150, upgrade(STOMP, 'bearer'))
    .after(151, opened('stomp'))
    .after(160, stompConnected(expectEveryMs, version));
}

/** When the CONNECT was answered in a fake from connected(). */
const CONNECTED_AT = 1_000_000 + 160;

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
    expect(pass?.summary).toMatch(
      /stayed open 4\.0 s after its CONNECT \(4\.0 heart-beat intervals of the 1000 ms it negotiated\)/,
    );
  });

  it("watches four intervals of what the client negotiated, not the server's offer", async () => {
    // Offered 2 s and never beat: the simulator's watchdog closes it after two to three intervals.
    const silent = connected(2_000).after(6_170, closed('stomp', 1008));
    const [fail] = await heartBeatsScenario.run(silent.context());
    expect(fail?.status).toBe('fail');
    expect(fail?.summary).toMatch(/timed its session out \(1008\) for missing the heart-beats it negotiated/);
    const kept = connected(2_000);
    const [pass] = await heartBeatsScenario.run(kept.context());
    expect(pass?.status).toBe('pass');
    expect(pass?.summary).toMatch(/stayed open 8\.0 s .* of the 2000 ms it negotiated/);
    expect(kept.time - CONNECTED_AT).toBe(8_000);
  });

  it('fails heart-beats for another close during the watch', async () => {
    const [fail] = await heartBeatsScenario.run(
      connected(2_000).after(3_160, closed('stomp', 1000)).context(),
    );
    expect(fail?.status).toBe('fail');
    expect(fail?.summary).toBe('its session closed (1000) 3.0 s after its CONNECT, within the watch');
  });

  it('warns when the interval is too long for three in the capped watch', async () => {
    const fake = connected(10_000);
    const [warn] = await heartBeatsScenario.run(fake.context());
    expect(warn?.status).toBe('warn');
    expect(warn?.summary).toMatch(
      /^negotiated heart-beats every 10000 ms, watched 30\.0 s .* a shorter heart-beat is recommended/,
    );
    expect(fake.time - CONNECTED_AT).toBe(MAX_WATCH_MS);
    // A timeout inside the capped watch still fails.
    const [fail] = await heartBeatsScenario.run(
      connected(10_000).after(30_100, closed('stomp', 1008)).context(),
    );
    expect(fail?.status).toBe('fail');
  });

  it('caps the watch and still proves three intervals and a margin below the cap', () => {
    expect(watchFor(1_000)).toEqual({ watchMs: 4_000, proves: true });
    expect(watchFor(9_000)).toEqual({ watchMs: MAX_WATCH_MS, proves: true });
    expect(watchFor(9_666).proves).toBe(true);
    expect(watchFor(9_667).proves).toBe(false);
    expect(watchFor(60_000)).toEqual({ watchMs: MAX_WATCH_MS, proves: false });
  });

  it('warns a client that negotiated no heart-beats, without watching', async () => {
    const fake = connected(0);
    const [warn] = await heartBeatsScenario.run(fake.context());
    expect(warn?.status).toBe('warn');
    expect(warn?.summary).toBe(
      'negotiated no heart-beats: the server cannot tell a dead connection from a quiet one',
    );
    expect(fake.time).toBe(CONNECTED_AT);
    const [old] = await heartBeatsScenario.run(connected(0, '1.0').context());
    expect(old?.summary).toMatch(/STOMP 1\.0 has none/);
  });

  it('skips heart-beats when no session opened or its CONNECT never came', async () => {
    const [none] = await heartBeatsScenario.run(new FakeContext().context());
    expect(none?.status).toBe('skip');
    const silent = new FakeContext().after(150, upgrade(STOMP, 'bearer')).after(151, opened('stomp'));
    const [noConnect] = await heartBeatsScenario.run(silent.context());
    expect([noConnect?.status, noConnect?.summary]).toEqual([
      'skip',
      'its STOMP session sent no CONNECT, so no heart-beats were negotiated',
    ]);
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
