import type { Clock, TimerHandle } from '@racedata/core';
import { invalid } from './body-checks';

/**
 * How far POST /_sim/clock/advance may move the clock in all, as one advance may: a hundred
 * years outlasts any retention or token lifetime, keeps every date in four-digit years, and stays
 * far inside what a Date can hold (advances summed past that made every answer that prints the
 * time fail).
 */
export const MAX_CLOCK_OFFSET_MS = 100 * 365 * 24 * 3_600_000;

interface OffsetTimer {
  due: number;
  readonly every: number | undefined;
  readonly fn: () => void;
  base: TimerHandle | undefined;
}

/**
 * The clock a running simulator uses: the injected clock plus an offset that
 * POST /_sim/clock/advance moves forward. Timers are kept here as well as on the injected
 * clock, so an advance fires at once every timer that falls due on the way (queue retention,
 * token expiry, long-poll deadlines, pings, replay), in due order. An interval that several
 * periods were skipped over fires once, then keeps its period from the new time: a day's jump
 * must not send a day's worth of pings.
 */
export class OffsetClock implements Clock {
  private offset = 0;
  private readonly timers = new Set<OffsetTimer>();

  constructor(private readonly base: Clock) {}

  /** Milliseconds added to the injected clock so far. */
  get offsetMs(): number {
    return this.offset;
  }

  now(): number {
    return this.base.now() + this.offset;
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    return this.add(fn, ms, undefined);
  }

  setInterval(fn: () => void, ms: number): TimerHandle {
    return this.add(fn, ms, Math.max(1, ms));
  }

  /**
   * Moves time forward by ms, firing every timer that falls due on the way; returns how many.
   * Refused (VALIDATION_FAILED, nothing moved) past MAX_CLOCK_OFFSET_MS ahead in all.
   */
  advance(ms: number): number {
    if (this.offset + ms > MAX_CLOCK_OFFSET_MS) {
      throw invalid(
        `the clock may run at most ${MAX_CLOCK_OFFSET_MS} ms (100 years) ahead in all; it is ` +
          `${this.offset} ms ahead, so "ms" may be at most ${MAX_CLOCK_OFFSET_MS - this.offset} ` +
          '(POST /_sim/reset restores the real time)',
      );
    }
    this.offset += ms;
    const now = this.now();
    let fired = 0;
    // Timers a callback adds are due after `now` unless set for 0 ms; those run on the base clock.
    const due = [...this.timers].filter((t) => t.due <= now).sort((a, b) => a.due - b.due);
    for (const timer of due) {
      if (!this.timers.has(timer)) continue;
      timer.base?.cancel();
      if (timer.every === undefined) this.timers.delete(timer);
      else this.schedule(timer, now + timer.every);
      fired++;
      timer.fn();
    }
    for (const timer of this.timers) if (!due.includes(timer)) this.schedule(timer, timer.due);
    return fired;
  }

  /**
   * Back to the injected clock's time; returns the offset removed. Nothing fires: each timer keeps
   * the time it had left, so a held poll still ends after its own timeout.
   */
  restore(): number {
    const removed = this.offset;
    const left = [...this.timers].map((timer) => [timer, timer.due - this.now()] as const);
    this.offset = 0;
    for (const [timer, ms] of left) this.schedule(timer, this.now() + ms);
    return removed;
  }

  private add(fn: () => void, ms: number, every: number | undefined): TimerHandle {
    const timer: OffsetTimer = { due: 0, every, fn, base: undefined };
    this.timers.add(timer);
    this.schedule(timer, this.now() + Math.max(0, ms));
    return {
      cancel: () => {
        timer.base?.cancel();
        this.timers.delete(timer);
      },
    };
  }

  /** (Re)arms the timer on the injected clock for `due`, in this clock's time. */
  private schedule(timer: OffsetTimer, due: number): void {
    timer.base?.cancel();
    timer.due = due;
    timer.base = this.base.setTimeout(() => this.fire(timer), Math.max(0, due - this.now()));
  }

  private fire(timer: OffsetTimer): void {
    if (!this.timers.has(timer)) return;
    if (timer.every === undefined) this.timers.delete(timer);
    else this.schedule(timer, timer.due + timer.every);
    timer.fn();
  }
}
