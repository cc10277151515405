/**
 * Time as a dependency. Long-poll timeouts, token expiry, queue retention, pings and replay all
 * go through a Clock so tests can drive them with fake time instead of sleeping.
 */
export interface TimerHandle {
  cancel(): void;
}

export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): TimerHandle;
  setInterval(fn: () => void, ms: number): TimerHandle;
}

// Globals are looked up at call time, not captured at import, so jest's fake timers apply.
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout(fn, ms) {
    const handle = globalThis.setTimeout(fn, ms);
    return { cancel: () => globalThis.clearTimeout(handle) };
  },
  setInterval(fn, ms) {
    const handle = globalThis.setInterval(fn, ms);
    return { cancel: () => globalThis.clearInterval(handle) };
  },
};

/**
 * Milliseconds on a monotonic clock, for durations (a request's time to answer). Not
 * `performance.now()`: the first use of the `performance` global loads eleven of Node's modules,
 * about 2 ms, and the first request after a start would pay it (the start-up bench times a start
 * to its first answer).
 */
export function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

interface ManualTimer {
  id: number;
  due: number;
  every: number | undefined;
  fn: () => void;
}

/** A clock that only moves when told to; timers fire in due order during advance(). */
export class ManualClock implements Clock {
  private current: number;
  private nextId = 1;
  private timers: ManualTimer[] = [];

  constructor(start = Date.UTC(2026, 0, 1)) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    return this.add(fn, ms, undefined);
  }

  setInterval(fn: () => void, ms: number): TimerHandle {
    return this.add(fn, ms, Math.max(1, ms));
  }

  get pendingTimers(): number {
    return this.timers.length;
  }

  /** Moves time forward by ms, firing every timer that falls due on the way. */
  advance(ms: number): void {
    const target = this.current + ms;
    for (;;) {
      const next = this.timers.reduce<ManualTimer | undefined>(
        (best, t) => (t.due <= target && (best === undefined || t.due < best.due) ? t : best),
        undefined,
      );
      if (next === undefined) break;
      this.current = Math.max(this.current, next.due);
      if (next.every === undefined) this.timers = this.timers.filter((t) => t !== next);
      else next.due += next.every;
      next.fn();
    }
    this.current = target;
  }

  /** Like advance(), letting promise callbacks run between timers (for async code under test). */
  async advanceAsync(ms: number, step = ms): Promise<void> {
    let left = ms;
    while (left > 0) {
      const move = Math.min(step, left);
      this.advance(move);
      left -= move;
      for (let i = 0; i < 10; i++) await Promise.resolve();
    }
  }

  private add(fn: () => void, ms: number, every: number | undefined): TimerHandle {
    const timer: ManualTimer = { id: this.nextId++, due: this.current + Math.max(0, ms), every, fn };
    this.timers.push(timer);
    return { cancel: () => (this.timers = this.timers.filter((t) => t !== timer)) };
  }
}
