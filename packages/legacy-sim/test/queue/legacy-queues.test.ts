import type { ManualClock } from '@racedata/core';
import { flush, track } from '@racedata/test-support';
import { xmlOf, type LegacyQueues } from '../../src/queue/legacy-queues';
import { QueuedDocument } from '../../src/queue/queued-document';
import { alice, bob, freshQueues, user } from './legacy-queues-support';

describe('LegacyQueues', () => {
  const { current, put, take, takeNow } = freshQueues();
  let clock: ManualClock;
  let queues: LegacyQueues;
  beforeEach(() => {
    ({ clock, queues } = current);
  });

  test('enqueue builds a frozen message with an id, channel, payloadKey, document and enqueue time', async () => {
    expect(queues.enqueue([alice], { channel: 'RaceDay', payloadKey: 'K1', xml: '<a/>' })).toBe(1);
    const lease = await takeNow();
    expect(lease.message).toEqual({
      id: 1,
      channel: 'RaceDay',
      payloadKey: 'K1',
      document: expect.any(QueuedDocument),
      enqueuedAt: clock.now(),
    });
    expect(xmlOf(lease.message)).toBe('<a/>');
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
      out.push(xmlOf(lease.message));
      lease.ack();
    }
    expect(out).toEqual(['<1/>', '<2/>', '<3/>']);
    expect(queues.depth(alice)).toBe(0);
  });

  test('a take finds a queued message immediately, without advancing the clock', async () => {
    put('<a/>');
    const t = track(take(alice, 60_000));
    await flush();
    expect(xmlOf(t.value()?.message)).toBe('<a/>');
    expect(clock.pendingTimers).toBe(0);
  });

  test('a waiting take receives the next enqueued message and its timer is cancelled', async () => {
    const t = track(take());
    await flush();
    expect(t.settled()).toBe(false);
    expect(clock.pendingTimers).toBe(1);
    put('<late/>');
    expect(xmlOf((await t.promise)?.message)).toBe('<late/>');
    expect(clock.pendingTimers).toBe(0);
  });

  test('a leased message is invisible to other takes until released or acked', async () => {
    put('<only/>');
    const first = await takeNow();
    expect(xmlOf(first.message)).toBe('<only/>');
    const second = track(take(alice, 1000));
    clock.advance(1000);
    expect(await second.promise).toBeUndefined();
    expect(queues.depth(alice)).toBe(1);
  });

  test('release puts the message back at the head, before newer messages', async () => {
    put('<1/>');
    put('<2/>');
    const lease = await takeNow();
    expect(xmlOf(lease.message)).toBe('<1/>');
    lease.release();
    const again = await takeNow();
    expect(xmlOf(again.message)).toBe('<1/>');
    expect(again.message).toBe(lease.message);
    again.ack();
    expect(xmlOf((await takeNow()).message)).toBe('<2/>');
  });

  test('release hands the message to the next waiting take', async () => {
    put('<m/>');
    const lease = await takeNow();
    const waiting = track(take());
    await flush();
    expect(waiting.settled()).toBe(false);
    lease.release();
    expect(xmlOf((await waiting.promise)?.message)).toBe('<m/>');
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
    expect(xmlOf(next.message)).toBe('<b/>');
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
    expect(leases.map((l) => xmlOf(l?.message))).toEqual(['<1/>', '<2/>', '<3/>']);
  });

  test('concurrent waiting takes are served in arrival order, one message each', async () => {
    const a = track(take());
    const b = track(take());
    const c = track(take(alice, 500));
    await flush();
    put('<1/>');
    put('<2/>');
    expect(xmlOf((await a.promise)?.message)).toBe('<1/>');
    expect(xmlOf((await b.promise)?.message)).toBe('<2/>');
    await flush();
    expect(c.settled()).toBe(false);
    clock.advance(500);
    expect(await c.promise).toBeUndefined();
  });

  test('a message enqueued for several users is taken once per user', async () => {
    put('<x/>', [alice, bob]);
    const a = await takeNow(alice);
    const b = await takeNow(bob);
    expect(xmlOf(a.message)).toBe('<x/>');
    expect(xmlOf(b.message)).toBe('<x/>');
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
    expect(xmlOf((await takeNow(alice)).message)).toBe('<for-alice/>');
  });

  test('users are told apart by key: another User object with the same key shares the queue', async () => {
    put('<a/>', [alice]);
    expect(xmlOf((await takeNow(user('alice', []))).message)).toBe('<a/>');
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
    expect(xmlOf((await takeNow()).message)).toBe('<after/>');
  });

  test('an abort signal ends a waiting take with undefined and does not swallow the next message', async () => {
    const controller = new AbortController();
    const t = take(alice, 60_000, controller.signal);
    controller.abort();
    expect(await t).toBeUndefined();
    expect(clock.pendingTimers).toBe(0);
    put('<a/>');
    expect(xmlOf((await takeNow()).message)).toBe('<a/>');
  });

  test('an already aborted signal returns undefined at once and leases nothing', async () => {
    put('<a/>');
    const controller = new AbortController();
    controller.abort();
    expect(await take(alice, 60_000, controller.signal)).toBeUndefined();
    expect(xmlOf((await takeNow()).message)).toBe('<a/>');
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

  test('depth of an unknown user is 0; totalDepth sums every user', () => {
    expect(queues.depth(user('nobody'))).toBe(0);
    put('<a/>', [alice, bob]);
    put('<b/>', [alice]);
    expect(queues.totalDepth).toBe(3);
  });
});
