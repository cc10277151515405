import type { Clock, TimerHandle } from '@racedata/core';

export type WaitOutcome = 'notified' | 'timeout' | 'closed' | 'aborted';

/** The held side of a wait: which channels wake it, and what runs once it is over. */
export interface PollWaiter {
  /** Whose poll this is, for the control plane's state. */
  readonly userKey?: string;
  accepts(channel: string): boolean;
  /**
   * Called exactly once, synchronously, when the wait ends: from notify() (so from inside the
   * publish that stored the data), from the timer, from close() or from cancel(). Must not
   * throw: answer the request or hand the error to the framework.
   */
  settled(outcome: WaitOutcome): void;
}

/** A registered wait; cancel() settles it "aborted" (the client went away). */
export interface PollHold {
  cancel(): void;
}

class Hold implements PollHold {
  timer: TimerHandle | undefined;

  constructor(
    private readonly holds: Set<Hold>,
    readonly waiter: PollWaiter,
  ) {}

  cancel(): void {
    this.settle('aborted');
  }

  /** Ends the wait; a second outcome for the same wait is ignored. */
  settle(outcome: WaitOutcome): void {
    if (!this.holds.delete(this)) return;
    this.timer?.cancel();
    this.waiter.settled(outcome);
  }
}

/**
 * Held long polls. A handler that found nothing registers a waiter (synchronously after its
 * read, so no publish can slip between), then reads again once notified.
 */
export class LongPollHub {
  private readonly holds = new Set<Hold>();
  private closed = false;

  constructor(private readonly clock: Clock) {}

  get size(): number {
    return this.holds.size;
  }

  /**
   * Registers a waiter without a promise or an AbortSignal per poll (the cheap form for servers
   * holding many polls). Undefined when the hub is closed: the caller answers at once.
   */
  hold(waiter: PollWaiter, timeoutMs: number): PollHold | undefined {
    if (this.closed) return undefined;
    const hold = new Hold(this.holds, waiter);
    this.holds.add(hold);
    hold.timer = this.clock.setTimeout(() => hold.settle('timeout'), timeoutMs);
    return hold;
  }

  wait(accepts: (channel: string) => boolean, timeoutMs: number, signal?: AbortSignal): Promise<WaitOutcome> {
    if (this.closed) return Promise.resolve('closed');
    if (signal?.aborted) return Promise.resolve('aborted');
    return new Promise<WaitOutcome>((resolve) => {
      const onAbort = () => hold.cancel();
      const hold = this.hold(
        {
          accepts,
          settled: (outcome) => {
            signal?.removeEventListener('abort', onAbort);
            resolve(outcome);
          },
        },
        timeoutMs,
      ) as PollHold;
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** The users whose held polls would be answered by a message on the channel. */
  usersWaitingFor(channel: string): Set<string> {
    const users = new Set<string>();
    for (const hold of this.holds) {
      const key = hold.waiter.userKey;
      if (key !== undefined && hold.waiter.accepts(channel)) users.add(key);
    }
    return users;
  }

  /**
   * Wakes every waiter interested in the channel. Waiters registered while this runs (a woken
   * poll that found nothing new for its caller waits again) are left for the next notify.
   */
  notify(channel: string): void {
    let woken: Hold[] | undefined;
    for (const hold of this.holds) {
      if (hold.waiter.accepts(channel)) (woken ??= []).push(hold);
    }
    if (woken) this.settleAll(woken, 'notified');
  }

  /** Held polls by user key. */
  countByUser(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const hold of this.holds) {
      const key = hold.waiter.userKey;
      if (key !== undefined) counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    return counts;
  }

  /** Answers every held poll as if its deadline had come (204), keeping the hub open; returns how many. */
  releaseAll(): number {
    const holds = [...this.holds];
    this.settleAll(holds, 'timeout');
    return holds.length;
  }

  /** Answers every held poll (the server is shutting down). */
  close(): void {
    this.closed = true;
    this.settleAll([...this.holds], 'closed');
  }

  // A waiter that breaks its contract and throws must not keep the others waiting.
  private settleAll(holds: readonly Hold[], outcome: WaitOutcome): void {
    let failure: { err: unknown } | undefined;
    for (const hold of holds) {
      try {
        hold.settle(outcome);
      } catch (err) {
        failure ??= { err };
      }
    }
    if (failure) throw failure.err;
  }
}
