import type { Clock, TimerHandle } from '../clock';

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

  /** Moves time forward by ms, firing every timer that falls due on the way; returns how many. */
  advance(ms: number): number {
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
