import type { Logger, ManualClock, User } from '@racedata/core';
import { track } from '@racedata/test-support';
import { LegacyQueues, xmlOf, type Lease } from '../../src/queue/legacy-queues';
import { alice, bob, freshQueues, HOUR } from './legacy-queues-support';

describe('LegacyQueues bounds', () => {
  const { current, put, take, takeNow } = freshQueues();
  let clock: ManualClock;
  let queues: LegacyQueues;
  beforeEach(() => {
    ({ clock, queues } = current);
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
      expect(xmlOf((await takeNow()).message)).toBe('<young/>');
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
      expect(xmlOf((await takeNow()).message)).toBe('<new/>');
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
        out.push(xmlOf(lease.message));
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
      expect(xmlOf(next.message)).toBe('<1/>');
      next.ack();
      expect(xmlOf(((await q.take(alice, { timeoutMs: 0 })) as Lease).message)).toBe('<3/>');
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
        out.push(xmlOf(lease.message));
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
});
