import type { Clock, TimerHandle } from '@racedata/core';
import { silenceLimit, type HeartBeatPlan } from './stomp-negotiation';

export interface HeartBeatHooks {
  /** Write one heart-beat (a bare EOL) to the peer. */
  beat(): void;
  /** The peer stayed silent beyond the tolerated interval. */
  silent(silenceMs: number): void;
}

/**
 * Runs a negotiated heart-beat plan on the injected clock: beats out every `sendEvery`, and a
 * watchdog that fires once nothing at all (frame or beat) arrived for twice `expectEvery`.
 */
export class HeartBeatTimers {
  private timers: TimerHandle[] = [];
  private lastReceived: number;

  constructor(private readonly clock: Clock) {
    this.lastReceived = clock.now();
  }

  /** Any inbound bytes count as a sign of life. */
  received(): void {
    this.lastReceived = this.clock.now();
  }

  start(plan: HeartBeatPlan, hooks: HeartBeatHooks): void {
    this.stop();
    if (plan.sendEvery > 0) this.timers.push(this.clock.setInterval(() => hooks.beat(), plan.sendEvery));
    const limit = silenceLimit(plan);
    if (limit > 0) {
      const watchdog = this.clock.setInterval(() => {
        const silence = this.clock.now() - this.lastReceived;
        if (silence > limit) {
          this.stop();
          hooks.silent(silence);
        }
      }, plan.expectEvery);
      this.timers.push(watchdog);
    }
  }

  stop(): void {
    for (const timer of this.timers) timer.cancel();
    this.timers = [];
  }
}
