import { ManualClock, UserTable, type RecordedLegacyMessage } from '@racedata/core';
import { LEGACY_USERS, legacyChannelCatalog } from '../src/description';
import { AUTH, closeAll, startSim } from './support';

afterEach(closeAll);

/** The built-in user the queues and the hub know by key and channels. */
const testuser = UserTable.fromJSON(LEGACY_USERS, legacyChannelCatalog()).byKey('testuser');

function recorded(
  n: number,
  delivery: 'durable' | 'transient',
  channel = delivery === 'durable' ? 'RaceDay' : 'TimeToStart',
): RecordedLegacyMessage {
  return {
    kind: 'legacy',
    at: Date.UTC(2024, 4, 11, 10, 0, n),
    delivery,
    source: `day.jsonl:${n}`,
    channel,
    payloadKey: `key-${n}`,
    xml: `<Message n="${n}"/>`,
  };
}

describe('interval replay in the legacy simulator', () => {
  it('queues one recorded durable message per interval after the initial delay, looping', async () => {
    const clock = new ManualClock();
    const recordings = [recorded(1, 'durable'), recorded(2, 'durable', 'id')];
    const { probe, base } = await startSim(
      { autoReplayIntervalMs: 200, initialDelayMs: 50 },
      { clock, recordings },
    );
    const user = testuser;
    if (!user) throw new Error('no default user');
    expect(probe.queues.depth(user)).toBe(0);
    clock.advance(49);
    expect(probe.queues.depth(user)).toBe(0);
    clock.advance(1);
    expect(probe.queues.depth(user)).toBe(1);
    clock.advance(200);
    expect(probe.queues.depth(user)).toBe(2);
    // The recording loops: the third message is the first one again.
    clock.advance(200);
    expect(probe.queues.depth(user)).toBe(3);
    const bodies: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${base}/customerapi/channels/listen`, { headers: AUTH });
      expect(res.status).toBe(200);
      bodies.push(JSON.parse(await res.text()) as string);
    }
    expect(bodies).toEqual(['<Message n="1"/>', '<Message n="2"/>', '<Message n="1"/>']);
  });

  it('hands recorded transient messages to STOMP subscribers through the hub', async () => {
    const clock = new ManualClock();
    const { probe } = await startSim(
      { autoReplayIntervalMs: 100 },
      { clock, recordings: [recorded(1, 'transient')] },
    );
    const user = testuser;
    if (!user) throw new Error('no default user');
    const seen: unknown[] = [];
    probe.hub.subscribe(user, (message) => {
      seen.push(message);
    });
    clock.advance(99);
    expect(seen).toHaveLength(0);
    clock.advance(1);
    expect(seen).toEqual([
      expect.objectContaining({ channel: 'TimeToStart', payload: '<Message n="1"/>', payloadKey: 'key-1' }),
    ]);
    expect(probe.queues.depth(user)).toBe(0);
  });

  it('is off without an interval, and close() stops it', async () => {
    const clock = new ManualClock();
    const { probe } = await startSim({}, { clock, recordings: [recorded(1, 'durable')] });
    expect(probe.replay).toBeUndefined();
    const replaying = await startSim(
      { autoReplayIntervalMs: 100 },
      { clock, recordings: [recorded(1, 'durable')] },
    );
    await replaying.sim.close();
    expect(clock.pendingTimers).toBe(0);
  });
});

describe('timed replay in the legacy simulator (MAX_DELAY without an interval)', () => {
  it('queues recorded messages with their gaps capped at MAX_DELAY', async () => {
    const clock = new ManualClock();
    // recorded(1) and recorded(40) are 39 s apart; MAX_DELAY makes it 500 ms.
    const { probe } = await startSim(
      { maxDelayMs: 500 },
      { clock, recordings: [recorded(1, 'durable'), recorded(40, 'durable')] },
    );
    const user = testuser;
    if (!user) throw new Error('no default user');
    clock.advance(0);
    expect(probe.queues.depth(user)).toBe(1);
    clock.advance(499);
    expect(probe.queues.depth(user)).toBe(1);
    // The second message, and at once the first again: the recording loops.
    clock.advance(1);
    expect(probe.queues.depth(user)).toBe(3);
  });
});
