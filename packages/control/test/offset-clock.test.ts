import { ManualClock, SimError } from '@racedata/core';
import { MAX_CLOCK_OFFSET_MS, OffsetClock } from '../src';

describe('OffsetClock', () => {
  test('now() is the injected clock plus the advanced offset', () => {
    const base = new ManualClock(1_000);
    const clock = new OffsetClock(base);
    clock.advance(500);
    base.advance(10);
    expect(clock.now()).toBe(1_510);
    expect(clock.offsetMs).toBe(500);
  });

  test('an advance fires due timers in due order and leaves later ones armed', () => {
    const base = new ManualClock(0);
    const clock = new OffsetClock(base);
    const fired: string[] = [];
    clock.setTimeout(() => fired.push('b'), 200);
    clock.setTimeout(() => fired.push('a'), 100);
    clock.setTimeout(() => fired.push('late'), 1_000);
    expect(clock.advance(300)).toBe(2);
    expect(fired).toEqual(['a', 'b']);
    // The late timer is now 700 ms away on the injected clock, not 1,000.
    base.advance(699);
    expect(fired).toEqual(['a', 'b']);
    base.advance(1);
    expect(fired).toEqual(['a', 'b', 'late']);
  });

  test('an interval skipped over fires once, then keeps its period from the new time', () => {
    const base = new ManualClock(0);
    const clock = new OffsetClock(base);
    let ticks = 0;
    clock.setInterval(() => ticks++, 100);
    clock.advance(10_000);
    expect(ticks).toBe(1);
    base.advance(100);
    expect(ticks).toBe(2);
  });

  test('a cancelled timer never fires', () => {
    const clock = new OffsetClock(new ManualClock(0));
    let fired = false;
    clock.setTimeout(() => (fired = true), 10).cancel();
    clock.advance(100);
    expect(fired).toBe(false);
  });

  test('advances add up to MAX_CLOCK_OFFSET_MS at most: one past it is refused and moves nothing', () => {
    const clock = new OffsetClock(new ManualClock(0));
    clock.advance(MAX_CLOCK_OFFSET_MS - 10);
    let error: unknown;
    try {
      clock.advance(11);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(SimError);
    expect(error).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
    expect((error as Error).message).toContain('"ms" may be at most 10');
    expect(clock.offsetMs).toBe(MAX_CLOCK_OFFSET_MS - 10);
    clock.advance(10);
    expect(new Date(clock.now()).toISOString()).toMatch(/^20\d\d-/);
  });

  test('restore() goes back to the injected time; timers keep the time they had left, intervals their period', () => {
    const base = new ManualClock(1_000);
    const clock = new OffsetClock(base);
    const fired: string[] = [];
    clock.advance(90_000_000);
    clock.setTimeout(() => fired.push('poll'), 60_000);
    clock.setInterval(() => fired.push('ping'), 1_000);
    expect(clock.restore()).toBe(90_000_000);
    expect(clock.now()).toBe(1_000);
    expect(clock.offsetMs).toBe(0);
    expect(fired).toEqual([]);
    // Through the offset (an advance) and on the injected clock alike.
    expect(clock.advance(1_000)).toBe(1);
    base.advance(1_000);
    expect(fired).toEqual(['ping', 'ping']);
    clock.advance(58_000);
    expect(fired.filter((f) => f === 'poll')).toEqual(['poll']);
  });
});
