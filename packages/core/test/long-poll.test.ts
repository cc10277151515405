import { LongPollHub, ManualClock, type WaitOutcome } from '@racedata/core';

/** Records when a promise settles without awaiting it, so tests can check it is still pending. */
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

const flush = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

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
