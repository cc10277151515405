import type { Traffic, TrafficEvent, TrafficKind, TrafficOf } from '../types';

interface Waiter {
  readonly kind: TrafficKind;
  readonly test: (event: TrafficEvent) => boolean;
  readonly resolve: (event: TrafficEvent | undefined) => void;
}

/** Events kept; a client that hot-loops for a minute stays within memory, oldest dropped first. */
export const TRAFFIC_CAP = 50_000;

/**
 * What the certify server saw, in order, and waits for what comes next. stop() ends every wait
 * (undefined), so no scenario outlives its run.
 */
export class TrafficLog implements Traffic {
  private readonly events: TrafficEvent[] = [];
  private readonly waiters = new Set<Waiter>();
  private stopped = false;

  constructor(private readonly cap = TRAFFIC_CAP) {}

  record(event: TrafficEvent): void {
    this.events.push(event);
    if (this.events.length > this.cap) this.events.splice(0, this.events.length - this.cap);
    for (const waiter of [...this.waiters]) {
      if (waiter.kind === event.kind && waiter.test(event)) {
        this.waiters.delete(waiter);
        waiter.resolve(event);
      }
    }
  }

  all(): readonly TrafficEvent[] {
    return [...this.events];
  }

  of<K extends TrafficKind>(kind: K, since = 0): ReadonlyArray<TrafficOf<K>> {
    return this.events.filter((e): e is TrafficOf<K> => e.kind === kind && e.at >= since);
  }

  next<K extends TrafficKind>(
    kind: K,
    test: (event: TrafficOf<K>) => boolean,
    options: { readonly timeoutMs: number; readonly since?: number },
  ): Promise<TrafficOf<K> | undefined> {
    if (options.since !== undefined) {
      const seen = this.of(kind, options.since).find((e) => test(e));
      if (seen) return Promise.resolve(seen);
    }
    if (this.stopped) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const waiter: Waiter = {
        kind,
        test: (e) => test(e as TrafficOf<K>),
        resolve: (e) => {
          clearTimeout(timer);
          resolve(e as TrafficOf<K> | undefined);
        },
      };
      const timer = setTimeout(
        () => {
          this.waiters.delete(waiter);
          resolve(undefined);
        },
        Math.max(0, options.timeoutMs),
      );
      this.waiters.add(waiter);
    });
  }

  /** Ends every wait now and later ones at once. */
  stop(): void {
    this.stopped = true;
    for (const waiter of [...this.waiters]) waiter.resolve(undefined);
    this.waiters.clear();
  }
}
