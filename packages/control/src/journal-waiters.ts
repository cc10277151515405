import { type Clock, type TimerHandle } from '@racedata/core';
import { controlPlaneError } from './errors';
import type { JournalFilter, JournalPage } from './wire';

interface Waiter {
  readonly filter: JournalFilter;
  readonly count: number;
  /** Held entries that match the filter now: kept up to date as entries come and go. */
  matched: number;
  readonly done: (page: JournalPage, complete: boolean) => void;
  timer: TimerHandle | undefined;
}

/** Does the entry in question match this filter (the journal knows which entry it means). */
export type EntryTest = (filter: JournalFilter) => boolean;

/**
 * The journal's held waits. Each keeps a running count of the held entries that match it, told
 * of every entry that arrives or leaves the ring, so an entry costs each waiter one filter test.
 * Re-reading the journal for every matching entry made a wait for many entries cost the square
 * of its count, and one such wait stalled the whole process for seconds per page read.
 */
export class JournalWaiters {
  private readonly waiting = new Set<Waiter>();
  /**
   * Waits one entry completed together beyond the first, answered one per turn of the event
   * loop: a hundred waits for 10,000 entries each, answered at once, held every other request
   * for seconds while their pages were built and serialised.
   */
  private readonly due: Waiter[] = [];
  private draining = false;

  constructor(
    private readonly clock: Clock,
    private readonly max: number,
    /** The page a waiter is answered with: the first `count` held entries matching. */
    private readonly list: (filter: JournalFilter, count: number) => JournalPage,
  ) {}

  /** Waits held, and those complete but not yet answered. */
  get size(): number {
    return this.waiting.size + this.due.length;
  }

  /**
   * Holds a wait that `matched` held entries satisfy so far (fewer than `count`), or throws
   * JOURNAL_WAITERS_LIMIT when JOURNAL_WAITERS_MAX are held already. Returns its cancel function.
   */
  hold(
    filter: JournalFilter,
    count: number,
    matched: number,
    timeoutMs: number,
    done: (page: JournalPage, complete: boolean) => void,
  ): () => void {
    if (this.size >= this.max) {
      throw controlPlaneError(
        'JOURNAL_WAITERS_LIMIT',
        `${this.max} journal waits are held already (JOURNAL_WAITERS_MAX); retry when one is answered`,
      );
    }
    const waiter: Waiter = { filter, count, matched, done, timer: undefined };
    this.waiting.add(waiter);
    waiter.timer = this.clock.setTimeout(() => {
      if (this.waiting.delete(waiter)) done(this.list(filter, count), false);
    }, timeoutMs);
    return () => {
      waiter.timer?.cancel();
      this.waiting.delete(waiter);
      const at = this.due.indexOf(waiter);
      if (at >= 0) this.due.splice(at, 1);
    };
  }

  /** An entry was added; waiters it completes are answered. */
  arrived(test: EntryTest): void {
    for (const waiter of this.waiting) {
      if (!test(waiter.filter) || ++waiter.matched < waiter.count) continue;
      this.waiting.delete(waiter);
      waiter.timer?.cancel();
      if (this.draining) {
        this.due.push(waiter);
      } else {
        this.draining = true;
        waiter.done(this.list(waiter.filter, waiter.count), true);
        setImmediate(() => this.drain());
      }
    }
  }

  private drain(): void {
    const waiter = this.due.shift();
    if (!waiter) {
      this.draining = false;
      return;
    }
    waiter.done(this.list(waiter.filter, waiter.count), true);
    setImmediate(() => this.drain());
  }

  /** The oldest entry is about to be dropped from the full ring. */
  leaving(test: EntryTest): void {
    for (const waiter of this.waiting) if (test(waiter.filter)) waiter.matched--;
  }

  /** The journal was cleared: nothing held matches any more. */
  cleared(): void {
    for (const waiter of this.waiting) waiter.matched = 0;
  }

  /** Answers every waiter with what it has (the simulator is closing). */
  close(): void {
    for (const waiter of this.due.splice(0)) waiter.done(this.list(waiter.filter, waiter.count), true);
    for (const waiter of [...this.waiting]) {
      this.waiting.delete(waiter);
      waiter.timer?.cancel();
      waiter.done(this.list(waiter.filter, waiter.count), false);
    }
  }
}
