import { ManualClock } from '@racedata/core';
import { flush, track } from '@racedata/test-support';
import { LongPollHub, type PollWaiter, type WaitOutcome } from '../../src/store/long-poll';

const only =
  (...channels: string[]) =>
  (channel: string) =>
    channels.includes(channel);

describe('LongPollHub', () => {
  let clock: ManualClock;
  let hub: LongPollHub;

  beforeEach(() => {
    clock = new ManualClock();
    hub = new LongPollHub(clock);
  });

  test('notify wakes only the waiters that accept the channel', async () => {
    const trot = track(hub.wait(only('RaceDayTrot'), 60_000));
    const gallop = track(hub.wait(only('RaceDayGallop'), 60_000));
    const both = track(hub.wait(only('RaceDayTrot', 'RaceDayGallop'), 60_000));
    expect(hub.size).toBe(3);

    hub.notify('RaceDayTrot');
    await flush();
    expect(trot.value()).toBe('notified');
    expect(both.value()).toBe('notified');
    expect(gallop.settled()).toBe(false);
    expect(hub.size).toBe(1);

    hub.notify('RaceDayGallop');
    expect(await gallop.promise).toBe('notified');
    expect(hub.size).toBe(0);
  });

  test('notify for an unknown channel wakes nobody', async () => {
    const w = track(hub.wait(only('A'), 1000));
    hub.notify('B');
    await flush();
    expect(w.settled()).toBe(false);
    expect(hub.size).toBe(1);
  });

  test('notify with no waiters is harmless and a later notify does not affect a later waiter', async () => {
    hub.notify('A');
    const w = track(hub.wait(only('A'), 1000));
    await flush();
    expect(w.settled()).toBe(false);
  });

  test('the accept callback receives the notified channel name', () => {
    const accepts = jest.fn(() => false);
    void hub.wait(accepts, 1000);
    hub.notify('ResultTrot');
    expect(accepts).toHaveBeenCalledWith('ResultTrot');
  });

  test('times out after exactly timeoutMs of clock time, not before', async () => {
    const w = track(hub.wait(only('A'), 5000));
    clock.advance(4999);
    await flush();
    expect(w.settled()).toBe(false);
    clock.advance(1);
    expect(await w.promise).toBe('timeout');
    expect(hub.size).toBe(0);
  });

  test('a notified waiter cancels its timer and a timed-out one is not notified again', async () => {
    const notified = track(hub.wait(only('A'), 5000));
    const timedOut = track(hub.wait(only('B'), 100));
    expect(clock.pendingTimers).toBe(2);
    hub.notify('A');
    expect(clock.pendingTimers).toBe(1);
    clock.advance(100);
    expect(clock.pendingTimers).toBe(0);
    hub.notify('B');
    clock.advance(10_000);
    await flush();
    expect(notified.value()).toBe('notified');
    expect(timedOut.value()).toBe('timeout');
  });

  test('each waiter settles exactly once even if several things happen', async () => {
    const outcomes: WaitOutcome[] = [];
    const controller = new AbortController();
    const p = hub.wait(only('A'), 100, controller.signal).then((o) => outcomes.push(o));
    hub.notify('A');
    controller.abort();
    clock.advance(1000);
    hub.close();
    await p;
    await flush();
    expect(outcomes).toEqual(['notified']);
  });

  test('an abort signal settles the wait with "aborted" and removes it', async () => {
    const controller = new AbortController();
    const w = track(hub.wait(only('A'), 60_000, controller.signal));
    const other = track(hub.wait(only('A'), 60_000));
    expect(hub.size).toBe(2);
    controller.abort();
    expect(await w.promise).toBe('aborted');
    expect(hub.size).toBe(1);
    expect(clock.pendingTimers).toBe(1);
    hub.notify('A');
    expect(await other.promise).toBe('notified');
  });

  test('an already aborted signal resolves "aborted" at once without registering', async () => {
    const controller = new AbortController();
    controller.abort();
    expect(await hub.wait(only('A'), 1000, controller.signal)).toBe('aborted');
    expect(hub.size).toBe(0);
    expect(clock.pendingTimers).toBe(0);
  });

  test('close() settles every waiter with "closed" and clears their timers', async () => {
    const a = hub.wait(only('A'), 60_000);
    const b = hub.wait(only('B'), 60_000, new AbortController().signal);
    hub.close();
    expect(await Promise.all([a, b])).toEqual(['closed', 'closed']);
    expect(hub.size).toBe(0);
    expect(clock.pendingTimers).toBe(0);
  });

  test('after close() every new wait resolves "closed" immediately, even with an aborted signal', async () => {
    hub.close();
    const w = track(hub.wait(only('A'), 60_000));
    await flush();
    expect(w.value()).toBe('closed');
    const controller = new AbortController();
    controller.abort();
    expect(await hub.wait(only('A'), 60_000, controller.signal)).toBe('closed');
    expect(hub.size).toBe(0);
    expect(clock.pendingTimers).toBe(0);
  });

  test('close() twice is harmless', async () => {
    const w = hub.wait(only('A'), 100);
    hub.close();
    hub.close();
    expect(await w).toBe('closed');
  });

  test('a waiter registered from inside a wake-up is not woken by the same notify', async () => {
    const second: Promise<WaitOutcome>[] = [];
    const first = hub.wait(only('A'), 1000).then((o) => {
      second.push(hub.wait(only('A'), 1000));
      return o;
    });
    hub.notify('A');
    expect(await first).toBe('notified');
    expect(second).toHaveLength(1);
    const again = track(second[0] as Promise<WaitOutcome>);
    await flush();
    expect(again.settled()).toBe(false);
    hub.notify('A');
    expect(await again.promise).toBe('notified');
  });
});

describe('LongPollHub.hold (the promise-free form servers use)', () => {
  let clock: ManualClock;
  let hub: LongPollHub;

  beforeEach(() => {
    clock = new ManualClock();
    hub = new LongPollHub(clock);
  });

  /** A waiter that records its outcomes; `then` runs inside settled(). */
  function waiter(channels: string[], then?: (outcome: WaitOutcome) => void) {
    const outcomes: WaitOutcome[] = [];
    const w: PollWaiter = {
      accepts: (channel) => channels.includes(channel),
      settled: (outcome) => {
        outcomes.push(outcome);
        then?.(outcome);
      },
    };
    return { w, outcomes };
  }

  test('settles synchronously from notify, only the waiters that accept the channel', () => {
    const a = waiter(['A']);
    const b = waiter(['B']);
    hub.hold(a.w, 1000);
    hub.hold(b.w, 1000);
    expect(hub.size).toBe(2);
    hub.notify('A');
    expect(a.outcomes).toEqual(['notified']);
    expect(b.outcomes).toEqual([]);
    expect(hub.size).toBe(1);
    expect(clock.pendingTimers).toBe(1);
  });

  test('times out after exactly timeoutMs and cancels its timer when settled otherwise', () => {
    const a = waiter(['A']);
    const b = waiter(['B']);
    hub.hold(a.w, 500);
    hub.hold(b.w, 500);
    clock.advance(499);
    expect(a.outcomes).toEqual([]);
    hub.notify('B');
    clock.advance(1);
    expect(a.outcomes).toEqual(['timeout']);
    expect(b.outcomes).toEqual(['notified']);
    expect(clock.pendingTimers).toBe(0);
    expect(hub.size).toBe(0);
  });

  test('cancel() settles "aborted" once; later events are ignored', () => {
    const a = waiter(['A']);
    const hold = hub.hold(a.w, 500);
    hold?.cancel();
    hold?.cancel();
    hub.notify('A');
    clock.advance(1000);
    hub.close();
    expect(a.outcomes).toEqual(['aborted']);
    expect(hub.size).toBe(0);
    expect(clock.pendingTimers).toBe(0);
  });

  test('close() settles every hold "closed"; afterwards hold() refuses with undefined', () => {
    const a = waiter(['A']);
    hub.hold(a.w, 500);
    hub.close();
    expect(a.outcomes).toEqual(['closed']);
    const late = waiter(['A']);
    expect(hub.hold(late.w, 500)).toBeUndefined();
    expect(late.outcomes).toEqual([]);
    expect(hub.size).toBe(0);
    expect(clock.pendingTimers).toBe(0);
  });

  test('a waiter that holds again from inside settled() waits for the next notify', () => {
    const again = waiter(['A']);
    const first = waiter(['A'], () => hub.hold(again.w, 1000));
    hub.hold(first.w, 1000);
    hub.notify('A');
    expect(first.outcomes).toEqual(['notified']);
    expect(again.outcomes).toEqual([]);
    expect(hub.size).toBe(1);
    hub.notify('A');
    expect(again.outcomes).toEqual(['notified']);
  });

  test('one waiter throwing does not keep the others waiting; the error still surfaces', () => {
    const broken = waiter(['A'], () => {
      throw new Error('broken waiter');
    });
    const fine = waiter(['A']);
    hub.hold(broken.w, 1000);
    hub.hold(fine.w, 1000);
    expect(() => hub.notify('A')).toThrow('broken waiter');
    expect(fine.outcomes).toEqual(['notified']);
    expect(hub.size).toBe(0);
  });
});
