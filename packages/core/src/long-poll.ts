import type { Clock, TimerHandle } from './clock';

export type WaitOutcome = 'notified' | 'timeout' | 'closed' | 'aborted';

interface Waiter {
  accepts(channel: string): boolean;
  settle(outcome: WaitOutcome): void;
}

/**
 * Held long polls. A handler that found nothing registers a waiter (synchronously after its
 * read, so no publish can slip between), then reads again once notified.
 */
export class LongPollHub {
  private readonly waiters = new Set<Waiter>();
  private closed = false;

  constructor(private readonly clock: Clock) {}

  get size(): number {
    return this.waiters.size;
  }

  wait(accepts: (channel: string) => boolean, timeoutMs: number, signal?: AbortSignal): Promise<WaitOutcome> {
    if (this.closed) return Promise.resolve('closed');
    if (signal?.aborted) return Promise.resolve('aborted');
    return new Promise<WaitOutcome>((resolve) => {
      const timer: TimerHandle = this.clock.setTimeout(() => waiter.settle('timeout'), timeoutMs);
      const onAbort = () => waiter.settle('aborted');
      const waiter: Waiter = {
        accepts,
        settle: (outcome) => {
          if (!this.waiters.delete(waiter)) return;
          timer.cancel();
          signal?.removeEventListener('abort', onAbort);
          resolve(outcome);
        },
      };
      this.waiters.add(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Wakes every waiter interested in the channel. */
  notify(channel: string): void {
    for (const waiter of [...this.waiters]) {
      if (waiter.accepts(channel)) waiter.settle('notified');
    }
  }

  /** Answers every held poll (the server is shutting down). */
  close(): void {
    this.closed = true;
    for (const waiter of [...this.waiters]) waiter.settle('closed');
  }
}
