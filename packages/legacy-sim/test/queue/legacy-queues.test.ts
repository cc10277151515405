import { ManualClock, type Logger, type User } from '@racedata/core';
import { LegacyQueues, type Lease } from '../../src/queue/legacy-queues';

const user = (key: string, channels: string[] = ['RaceDay']): User => ({
  name: key,
  key,
  secret: 's',
  token: `${key}-token`,
  channels: new Set(channels),
});

const alice = user('alice');
const bob = user('bob');

const flush = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

function track<T>(promise: Promise<T>): {
  settled: () => boolean;
  value: () => T | undefined;
  promise: Promise<T>;
} {
  let done = false;
  let result: T | undefined;
  void promise.then((v) => {
    done = true;
    result = v;
  });
  return { settled: () => done, value: () => result, promise };
}

const HOUR = 3_600_000;

describe('LegacyQueues', () => {
  let clock: ManualClock;
  let queues: LegacyQueues;

  const put = (xml: string, to: readonly User[] = [alice], channel: string | null = 'RaceDay') =>
    queues.enqueue(to, { channel, payloadKey: `key-${xml}`, xml });
  const take = (u: User = alice, timeoutMs = 60_000, signal?: AbortSignal) =>
    queues.take(u, signal ? { timeoutMs, signal } : { timeoutMs });
  const takeNow = async (u: User = alice): Promise<Lease> => {
    const lease = await take(u, 0);
    if (!lease) throw new Error('expected a queued message');
    return lease;
  };

  beforeEach(() => {
    clock = new ManualClock();
    queues = new LegacyQueues({ clock, retentionMs: 24 * HOUR, maxPerUser: 10_000 });
  });

  test('enqueue builds a frozen message with an id, channel, payloadKey, xml and enqueue time', async () => {
    expect(queues.enqueue([alice], { channel: 'RaceDay', payloadKey: 'K1', xml: '<a/>' })).toBe(1);
    const lease = await takeNow();
    expect(lease.message).toEqual({
      id: 1,
      channel: 'RaceDay',
      payloadKey: 'K1',
      xml: '<a/>',
      enqueuedAt: clock.now(),
    });
    expect(Object.isFrozen(lease.message)).toBe(true);
  });

  test('enqueue returns how many queues took the message; ids increase per message', async () => {
    expect(put('<a/>', [alice, bob], null)).toBe(2);
    expect(put('<b/>', [])).toBe(0);
    expect(put('<c/>', [bob])).toBe(1);
    expect((await takeNow(alice)).message.id).toBe(1);
    const b1 = await takeNow(bob);
    b1.ack();
    expect(b1.message).toMatchObject({ id: 1, channel: null });
    expect((await takeNow(bob)).message.id).toBe(3);
  });

  test('messages come out FIFO per user', async () => {
    for (const x of ['<1/>', '<2/>', '<3/>']) put(x);
    const out: string[] = [];
    for (let i = 0; i < 3; i++) {
      const lease = await takeNow();
      out.push(lease.message.xml);
      lease.ack();
    }
    expect(out).toEqual(['<1/>', '<2/>', '<3/>']);
    expect(queues.depth(alice)).toBe(0);
  });

  test('a take finds a queued message immediately, without advancing the clock', async () => {
    put('<a/>');
    const t = track(take(alice, 60_000));
    await flush();
    expect(t.value()?.message.xml).toBe('<a/>');
    expect(clock.pendingTimers).toBe(0);
  });

  test('a waiting take receives the next enqueued message and its timer is cancelled', async () => {
    const t = track(take());
    await flush();
    expect(t.settled()).toBe(false);
    expect(clock.pendingTimers).toBe(1);
    put('<late/>');
    expect((await t.promise)?.message.xml).toBe('<late/>');
    expect(clock.pendingTimers).toBe(0);
  });

  test('a leased message is invisible to other takes until released or acked', async () => {
    put('<only/>');
    const first = await takeNow();
    expect(first.message.xml).toBe('<only/>');
    const second = track(take(alice, 1000));
    clock.advance(1000);
    expect(await second.promise).toBeUndefined();
    expect(queues.depth(alice)).toBe(1);
  });

  test('release puts the message back at the head, before newer messages', async () => {
    put('<1/>');
    put('<2/>');
    const lease = await takeNow();
    expect(lease.message.xml).toBe('<1/>');
    lease.release();
    const again = await takeNow();
    expect(again.message.xml).toBe('<1/>');
    expect(again.message).toBe(lease.message);
    again.ack();
    expect((await takeNow()).message.xml).toBe('<2/>');
  });

  test('release hands the message to the next waiting take', async () => {
    put('<m/>');
    const lease = await takeNow();
    const waiting = track(take());
    await flush();
    expect(waiting.settled()).toBe(false);
    lease.release();
    expect((await waiting.promise)?.message.xml).toBe('<m/>');
    expect(clock.pendingTimers).toBe(0);
  });

  test('ack removes the message for good; ack or release after settling does nothing', async () => {
    put('<a/>');
    put('<b/>');
    const lease = await takeNow();
    lease.ack();
    expect(queues.depth(alice)).toBe(1);
    lease.release();
    lease.ack();
    expect(queues.depth(alice)).toBe(1);
    const next = await takeNow();
    expect(next.message.xml).toBe('<b/>');
  });

  test('release after release does not hand the message out twice', async () => {
    put('<a/>');
    const lease = await takeNow();
    lease.release();
    const second = await takeNow();
    lease.release(); // stale lease: must not unlock the message second holds
    const third = track(take(alice, 100));
    clock.advance(100);
    expect(await third.promise).toBeUndefined();
    second.ack();
    expect(queues.depth(alice)).toBe(0);
  });

  test('acking a released message from the stale lease does not remove it', async () => {
    put('<a/>');
    const stale = await takeNow();
    stale.release();
    stale.ack();
    expect(queues.depth(alice)).toBe(1);
  });

  test('concurrent takes on a full queue each get a different message', async () => {
    put('<1/>');
    put('<2/>');
    put('<3/>');
    const leases = await Promise.all([take(), take(), take()]);
    expect(leases.map((l) => l?.message.xml)).toEqual(['<1/>', '<2/>', '<3/>']);
  });

  test('concurrent waiting takes are served in arrival order, one message each', async () => {
    const a = track(take());
    const b = track(take());
    const c = track(take(alice, 500));
    await flush();
    put('<1/>');
    put('<2/>');
    expect((await a.promise)?.message.xml).toBe('<1/>');
    expect((await b.promise)?.message.xml).toBe('<2/>');
    await flush();
    expect(c.settled()).toBe(false);
    clock.advance(500);
    expect(await c.promise).toBeUndefined();
  });

  test('a message enqueued for several users is taken once per user', async () => {
    put('<x/>', [alice, bob]);
    const a = await takeNow(alice);
    const b = await takeNow(bob);
    expect(a.message.xml).toBe('<x/>');
    expect(b.message.xml).toBe('<x/>');
    a.ack();
    expect(queues.depth(alice)).toBe(0);
    expect(queues.depth(bob)).toBe(1);
  });

  test('queues are isolated per user: no message, wake-up or lease crosses over', async () => {
    const bobWaits = track(take(bob, 1000));
    put('<for-alice/>', [alice]);
    await flush();
    expect(bobWaits.settled()).toBe(false);
    expect(queues.depth(bob)).toBe(0);
    expect(queues.depth(alice)).toBe(1);
    clock.advance(1000);
    expect(await bobWaits.promise).toBeUndefined();
    expect((await takeNow(alice)).message.xml).toBe('<for-alice/>');
  });

  test('users are told apart by key: another User object with the same key shares the queue', async () => {
    put('<a/>', [alice]);
    expect((await takeNow(user('alice', []))).message.xml).toBe('<a/>');
  });

  test('a take times out with undefined after exactly timeoutMs; the next message is kept for later', async () => {
    const t = track(take(alice, 30_000));
    clock.advance(29_999);
    await flush();
    expect(t.settled()).toBe(false);
    clock.advance(1);
    expect(await t.promise).toBeUndefined();
    put('<after/>');
    expect(queues.depth(alice)).toBe(1);
    expect((await takeNow()).message.xml).toBe('<after/>');
  });

  test('an abort signal ends a waiting take with undefined and does not swallow the next message', async () => {
    const controller = new AbortController();
    const t = take(alice, 60_000, controller.signal);
    controller.abort();
    expect(await t).toBeUndefined();
    expect(clock.pendingTimers).toBe(0);
    put('<a/>');
    expect((await takeNow()).message.xml).toBe('<a/>');
  });

  test('an already aborted signal returns undefined at once and leases nothing', async () => {
    put('<a/>');
    const controller = new AbortController();
    controller.abort();
    expect(await take(alice, 60_000, controller.signal)).toBeUndefined();
    expect((await takeNow()).message.xml).toBe('<a/>');
  });

  test('close() resolves every waiting take with undefined, and later takes too', async () => {
    const a = take(alice);
    const b = take(bob);
    queues.close();
    expect(await Promise.all([a, b])).toEqual([undefined, undefined]);
    expect(clock.pendingTimers).toBe(0);
    put('<kept/>');
    expect(await take(alice, 0)).toBeUndefined();
    expect(queues.depth(alice)).toBe(1);
  });

  describe('retention', () => {
    test('drops messages older than the retention period, keeps younger ones', async () => {
      put('<old/>');
      clock.advance(2 * HOUR);
      put('<young/>');
      clock.advance(22 * HOUR - 1);
      expect(queues.depth(alice)).toBe(2);
      clock.advance(1);
      expect(queues.depth(alice)).toBe(1);
      expect((await takeNow()).message.xml).toBe('<young/>');
    });

    test('an expired message is never handed to a take', async () => {
      put('<old/>');
      clock.advance(24 * HOUR);
      const t = track(take(alice, 100));
      clock.advance(100);
      expect(await t.promise).toBeUndefined();
    });

    test('expiry applies when enqueuing too (a waiting take gets the fresh message, not the stale one)', async () => {
      put('<old/>');
      const first = await takeNow();
      first.release();
      clock.advance(25 * HOUR);
      put('<new/>');
      expect(queues.depth(alice)).toBe(1);
      expect((await takeNow()).message.xml).toBe('<new/>');
    });

    test('a leased message survives expiry until it is acked or released', async () => {
      put('<held/>');
      const lease = await takeNow();
      clock.advance(48 * HOUR);
      expect(queues.depth(alice)).toBe(1);
      lease.ack();
      expect(queues.depth(alice)).toBe(0);
    });
  });

  describe('cap per user', () => {
    test('at the cap the oldest message is dropped, counted, and summarised in one log line', async () => {
      const logger: Logger & { warn: jest.Mock } = {
        debug: jest.fn(),
        info: jest.fn(),
        warn: jest.fn(),
        error: jest.fn(),
        child: jest.fn(),
      };
      const q = new LegacyQueues({ clock, retentionMs: HOUR, maxPerUser: 3, logger });
      for (const x of ['<1/>', '<2/>', '<3/>', '<4/>', '<5/>'])
        q.enqueue([alice], { channel: null, payloadKey: x, xml: x });
      expect(q.depth(alice)).toBe(3);
      expect(q.droppedCount).toBe(2);
      expect(q.dropCounts).toEqual({ count: 2, bytes: 0 });
      expect(logger.warn).not.toHaveBeenCalled();
      clock.advance(1_000);
      expect(logger.warn).toHaveBeenCalledTimes(1);
      expect(logger.warn).toHaveBeenCalledWith(
        expect.objectContaining({ dropped: 2, atCountCap: 2, atByteBudget: 0, maxPerUser: 3 }),
        expect.any(String),
      );
      const out: string[] = [];
      for (let i = 0; i < 3; i++) {
        const lease = (await q.take(alice, { timeoutMs: 0 })) as Lease;
        out.push(lease.message.xml);
        lease.ack();
      }
      expect(out).toEqual(['<3/>', '<4/>', '<5/>']);
    });

    test('the cap is per user and droppedCount counts each drop', () => {
      const q = new LegacyQueues({ clock, retentionMs: HOUR, maxPerUser: 2 });
      for (let i = 0; i < 3; i++) q.enqueue([alice, bob], { channel: null, payloadKey: 'k', xml: `<${i}/>` });
      q.enqueue([bob], { channel: null, payloadKey: 'k', xml: '<b/>' });
      expect(q.depth(alice)).toBe(2);
      expect(q.depth(bob)).toBe(2);
      expect(q.droppedCount).toBe(3);
      expect(q.totalDepth).toBe(4);
    });

    test('a leased message is not the one dropped', async () => {
      const q = new LegacyQueues({ clock, retentionMs: HOUR, maxPerUser: 2 });
      q.enqueue([alice], { channel: null, payloadKey: 'k', xml: '<1/>' });
      q.enqueue([alice], { channel: null, payloadKey: 'k', xml: '<2/>' });
      const held = (await q.take(alice, { timeoutMs: 0 })) as Lease;
      q.enqueue([alice], { channel: null, payloadKey: 'k', xml: '<3/>' });
      expect(q.droppedCount).toBe(1);
      held.release();
      const next = (await q.take(alice, { timeoutMs: 0 })) as Lease;
      expect(next.message.xml).toBe('<1/>');
      next.ack();
      expect(((await q.take(alice, { timeoutMs: 0 })) as Lease).message.xml).toBe('<3/>');
    });

    test('messages expired by retention free room before anything is dropped', () => {
      const q = new LegacyQueues({ clock, retentionMs: HOUR, maxPerUser: 2 });
      q.enqueue([alice], { channel: null, payloadKey: 'k', xml: '<1/>' });
      q.enqueue([alice], { channel: null, payloadKey: 'k', xml: '<2/>' });
      clock.advance(HOUR);
      q.enqueue([alice], { channel: null, payloadKey: 'k', xml: '<3/>' });
      expect(q.droppedCount).toBe(0);
      expect(q.depth(alice)).toBe(1);
    });
  });

  describe('byte budget across users', () => {
    const silentLogger = () => ({
      debug: jest.fn(),
      info: jest.fn(),
      warn: jest.fn(),
      error: jest.fn(),
      child: jest.fn(),
    });
    const sized = (n: number, tag: string) => `<${tag}>${'x'.repeat(n - 5 - 2 * tag.length)}</${tag}>`;
    const drain = async (q: LegacyQueues, u: User) => {
      const out: string[] = [];
      while (q.depth(u) > 0) {
        const lease = (await q.take(u, { timeoutMs: 0 })) as Lease;
        out.push(lease.message.xml);
        lease.ack();
      }
      return out;
    };

    test('counts UTF-8 bytes, each message once however many users hold it', () => {
      const q = new LegacyQueues({ clock, retentionMs: HOUR, maxPerUser: 100, maxBytes: 1_000 });
      q.enqueue([alice, bob], { channel: null, payloadKey: 'k', xml: '<a>å</a>' });
      expect(q.queuedBytes).toBe(9);
      q.enqueue([bob], { channel: null, payloadKey: 'k', xml: '<b/>' });
      expect(q.queuedBytes).toBe(13);
    });

    test('drops the oldest messages of every user until the new one fits', async () => {
      const q = new LegacyQueues({ clock, retentionMs: HOUR, maxPerUser: 100, maxBytes: 300 });
      q.enqueue([alice], { channel: null, payloadKey: 'k', xml: sized(100, 'a1') });
      q.enqueue([bob], { channel: null, payloadKey: 'k', xml: sized(100, 'b1') });
      q.enqueue([alice, bob], { channel: null, payloadKey: 'k', xml: sized(100, 'ab') });
      expect(q.queuedBytes).toBe(300);
      q.enqueue([bob], { channel: null, payloadKey: 'k', xml: sized(150, 'b2') });
      expect(q.dropCounts).toEqual({ count: 0, bytes: 2 });
      expect(q.queuedBytes).toBe(250);
      expect((await drain(q, alice)).map((x) => x.slice(0, 4))).toEqual(['<ab>']);
      expect((await drain(q, bob)).map((x) => x.slice(0, 4))).toEqual(['<ab>', '<b2>']);
      expect(q.queuedBytes).toBe(0);
    });

    test('a leased message is passed over and keeps its bytes until settled', async () => {
      const q = new LegacyQueues({ clock, retentionMs: HOUR, maxPerUser: 100, maxBytes: 200 });
      q.enqueue([alice], { channel: null, payloadKey: 'k', xml: sized(100, 'a1') });
      q.enqueue([alice], { channel: null, payloadKey: 'k', xml: sized(100, 'a2') });
      const held = (await q.take(alice, { timeoutMs: 0 })) as Lease;
      q.enqueue([alice], { channel: null, payloadKey: 'k', xml: sized(100, 'a3') });
      expect(q.dropCounts.bytes).toBe(1);
      held.release();
      expect((await drain(q, alice)).map((x) => x.slice(0, 4))).toEqual(['<a1>', '<a3>']);
    });

    test('expired messages free their bytes before anything is dropped', () => {
      const q = new LegacyQueues({ clock, retentionMs: HOUR, maxPerUser: 100, maxBytes: 200 });
      q.enqueue([alice], { channel: null, payloadKey: 'k', xml: sized(100, 'a1') });
      q.enqueue([bob], { channel: null, payloadKey: 'k', xml: sized(100, 'b1') });
      clock.advance(HOUR);
      q.enqueue([bob], { channel: null, payloadKey: 'k', xml: sized(200, 'b2') });
      expect(q.droppedCount).toBe(0);
      expect(q.queuedBytes).toBe(200);
    });

    test('a flood logs one summary per second at most, and close() reports the rest', () => {
      const logger = silentLogger();
      const q = new LegacyQueues({ clock, retentionMs: HOUR, maxPerUser: 1_000, maxBytes: 100, logger });
      for (let i = 0; i < 500; i++)
        q.enqueue([alice], { channel: null, payloadKey: 'k', xml: sized(100, 'm') });
      expect(logger.warn).not.toHaveBeenCalled();
      clock.advance(1_000);
      expect(logger.warn).toHaveBeenCalledTimes(1);
      expect(logger.warn.mock.calls[0]?.[0]).toMatchObject({
        dropped: 499,
        atByteBudget: 499,
        maxBytes: 100,
      });
      for (let i = 0; i < 10; i++)
        q.enqueue([alice], { channel: null, payloadKey: 'k', xml: sized(100, 'm') });
      clock.advance(500);
      expect(logger.warn).toHaveBeenCalledTimes(1);
      q.close();
      expect(logger.warn).toHaveBeenCalledTimes(2);
      expect(logger.warn.mock.calls[1]?.[0]).toMatchObject({ dropped: 10 });
      expect(clock.pendingTimers).toBe(0);
      expect(q.droppedCount).toBe(509);
    });
  });

  test('depth of an unknown user is 0; totalDepth sums every user', () => {
    expect(queues.depth(user('nobody'))).toBe(0);
    put('<a/>', [alice, bob]);
    put('<b/>', [alice]);
    expect(queues.totalDepth).toBe(3);
  });
});
