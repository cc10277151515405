import { ManualClock, systemClock } from '@racedata/core';

describe('ManualClock', () => {
  test('starts at 2026-01-01T00:00:00Z by default, or at the given instant', () => {
    expect(new ManualClock().now()).toBe(Date.UTC(2026, 0, 1));
    expect(new ManualClock(12345).now()).toBe(12345);
  });

  test('time only moves on advance()', () => {
    const clock = new ManualClock(1000);
    expect(clock.now()).toBe(1000);
    clock.advance(250);
    expect(clock.now()).toBe(1250);
    clock.advance(0);
    expect(clock.now()).toBe(1250);
  });

  test('setTimeout fires once, exactly when its due time is reached, with now() at the due time', () => {
    const clock = new ManualClock(0);
    const seen: number[] = [];
    clock.setTimeout(() => seen.push(clock.now()), 100);
    clock.advance(99);
    expect(seen).toEqual([]);
    clock.advance(1);
    expect(seen).toEqual([100]);
    clock.advance(1000);
    expect(seen).toEqual([100]);
    expect(clock.pendingTimers).toBe(0);
  });

  test('a 0 ms (or negative) timeout fires on the next advance, even advance(0)', () => {
    const clock = new ManualClock(0);
    const fn = jest.fn();
    clock.setTimeout(fn, 0);
    clock.setTimeout(fn, -50);
    expect(fn).not.toHaveBeenCalled();
    clock.advance(0);
    expect(fn).toHaveBeenCalledTimes(2);
  });

  test('fires timers in due order within one advance, setting now() to each due time', () => {
    const clock = new ManualClock(0);
    const seen: string[] = [];
    clock.setTimeout(() => seen.push(`c@${clock.now()}`), 300);
    clock.setTimeout(() => seen.push(`a@${clock.now()}`), 100);
    clock.setTimeout(() => seen.push(`b@${clock.now()}`), 200);
    clock.advance(1000);
    expect(seen).toEqual(['a@100', 'b@200', 'c@300']);
    expect(clock.now()).toBe(1000);
  });

  test('timers due at the same time fire in the order they were set', () => {
    const clock = new ManualClock(0);
    const seen: number[] = [];
    for (let i = 0; i < 5; i++) clock.setTimeout(() => seen.push(i), 50);
    clock.advance(50);
    expect(seen).toEqual([0, 1, 2, 3, 4]);
  });

  test('cancel() stops a timer from firing and removes it', () => {
    const clock = new ManualClock(0);
    const fn = jest.fn();
    const keep = jest.fn();
    const handle = clock.setTimeout(fn, 10);
    clock.setTimeout(keep, 10);
    expect(clock.pendingTimers).toBe(2);
    handle.cancel();
    expect(clock.pendingTimers).toBe(1);
    clock.advance(100);
    expect(fn).not.toHaveBeenCalled();
    expect(keep).toHaveBeenCalledTimes(1);
    handle.cancel(); // cancelling twice is harmless
    expect(clock.pendingTimers).toBe(0);
  });

  test('setInterval fires every period, at each multiple, until cancelled', () => {
    const clock = new ManualClock(0);
    const seen: number[] = [];
    const handle = clock.setInterval(() => seen.push(clock.now()), 100);
    clock.advance(350);
    expect(seen).toEqual([100, 200, 300]);
    expect(clock.now()).toBe(350);
    clock.advance(50);
    expect(seen).toEqual([100, 200, 300, 400]);
    handle.cancel();
    clock.advance(1000);
    expect(seen).toHaveLength(4);
    expect(clock.pendingTimers).toBe(0);
  });

  test('an interval can cancel itself from its own callback', () => {
    const clock = new ManualClock(0);
    let count = 0;
    const handle = clock.setInterval(() => {
      count++;
      if (count === 3) handle.cancel();
    }, 10);
    clock.advance(1000);
    expect(count).toBe(3);
    expect(clock.pendingTimers).toBe(0);
  });

  test('a 0 ms interval does not spin forever: it runs once per ms', () => {
    const clock = new ManualClock(0);
    const fn = jest.fn();
    clock.setInterval(fn, 0);
    clock.advance(5);
    // due at 0, then 1, 2, 3, 4, 5
    expect(fn).toHaveBeenCalledTimes(6);
  });

  test('timers set from a callback fire in the same advance when they fall due within it', () => {
    const clock = new ManualClock(0);
    const seen: number[] = [];
    clock.setTimeout(() => {
      seen.push(clock.now());
      clock.setTimeout(() => seen.push(clock.now()), 30);
      clock.setTimeout(() => seen.push(clock.now()), 500);
    }, 10);
    clock.advance(100);
    expect(seen).toEqual([10, 40]);
    expect(clock.pendingTimers).toBe(1);
    clock.advance(410);
    expect(seen).toEqual([10, 40, 510]);
  });

  test('a callback can cancel a later timer of the same advance', () => {
    const clock = new ManualClock(0);
    const late = jest.fn();
    const handle = clock.setTimeout(late, 20);
    clock.setTimeout(() => handle.cancel(), 10);
    clock.advance(100);
    expect(late).not.toHaveBeenCalled();
  });

  test('advanceAsync lets promise callbacks run between steps', async () => {
    const clock = new ManualClock(0);
    const seen: number[] = [];
    const sleep = (ms: number) => new Promise<void>((resolve) => clock.setTimeout(resolve, ms));
    const run = (async () => {
      for (let i = 0; i < 3; i++) {
        await sleep(100);
        seen.push(clock.now());
      }
    })();
    // With plain advance() the second sleep is only registered after a microtask, so it would be missed.
    await clock.advanceAsync(300, 100);
    await run;
    expect(seen).toEqual([100, 200, 300]);
    expect(clock.now()).toBe(300);
  });

  test('advanceAsync with the default step is a single advance followed by microtasks', async () => {
    const clock = new ManualClock(0);
    const fn = jest.fn();
    clock.setTimeout(fn, 10);
    await clock.advanceAsync(10);
    expect(fn).toHaveBeenCalledTimes(1);
    expect(clock.now()).toBe(10);
  });
});

describe('systemClock', () => {
  afterEach(() => {
    jest.useRealTimers();
  });

  test('now() is the wall clock', () => {
    const before = Date.now();
    const now = systemClock.now();
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(Date.now());
  });

  test('uses the global timers at call time, so jest fake timers drive it', () => {
    jest.useFakeTimers({ now: Date.UTC(2030, 0, 1) });
    expect(systemClock.now()).toBe(Date.UTC(2030, 0, 1));
    const once = jest.fn();
    const every = jest.fn();
    systemClock.setTimeout(once, 100);
    const interval = systemClock.setInterval(every, 40);
    jest.advanceTimersByTime(99);
    expect(once).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(once).toHaveBeenCalledTimes(1);
    expect(every).toHaveBeenCalledTimes(2);
    interval.cancel();
    jest.advanceTimersByTime(1000);
    expect(every).toHaveBeenCalledTimes(2);
  });

  test('cancel() of a timeout prevents it from firing', () => {
    jest.useFakeTimers();
    const fn = jest.fn();
    const handle = systemClock.setTimeout(fn, 10);
    handle.cancel();
    jest.advanceTimersByTime(100);
    expect(fn).not.toHaveBeenCalled();
    expect(jest.getTimerCount()).toBe(0);
  });
});
