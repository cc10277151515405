import type { Traffic, TrafficEvent, TrafficKind, TrafficOf } from '../types';

interface Waiter {
  readonly kind: TrafficKind;
  readonly test: (event: TrafficEvent) => boolean;
  readonly resolve: (event: TrafficEvent | undefined) => void;
}

/** Events kept; a client that hot-loops for a minute stays within memory, oldest dropped first. */
export const TRAFFIC_CAP = 50_000;
/**
 * The client's echo lines are kept apart, under a cap of their own: a client that floods its
 * output must not push its requests and sessions out of the log the checks grade.
 */
export const LINES_CAP = 10_000;

/**
 * What the certify server saw, in order, and waits for what comes next. stop() ends every wait
 * (undefined), so no scenario outlives its run.
 */
export class TrafficLog implements Traffic {
  private readonly events: TrafficEvent[] = [];
  private readonly lines: TrafficEvent[] = [];
  private readonly waiters = new Set<Waiter>();
  private stopped = false;

  constructor(
    private readonly cap = TRAFFIC_CAP,
    private readonly linesCap = LINES_CAP,
  ) {}

  record(event: TrafficEvent): void {
    const line = event.kind === 'client-line';
    const kept = line ? this.lines : this.events;
    const cap = line ? this.linesCap : this.cap;
    kept.push(event);
    // Trimmed a tenth at a time: one splice per event past the cap would copy the whole log each time.
    if (kept.length > cap * 1.1) kept.splice(0, kept.length - cap);
    for (const waiter of [...this.waiters]) {
      if (waiter.kind === event.kind && waiter.test(event)) {
        this.waiters.delete(waiter);
        waiter.resolve(event);
      }
    }
  }

  all(): readonly TrafficEvent[] {
    if (this.lines.length === 0) return [...this.events];
    // Both in the order they were recorded, so a stable sort by time keeps each one's order.
    return [...this.events, ...this.lines].sort((a, b) => a.at - b.at);
  }

  of<K extends TrafficKind>(kind: K, since = 0): ReadonlyArray<TrafficOf<K>> {
    const kept = kind === 'client-line' ? this.lines : this.events;
    return kept.filter((e): e is TrafficOf<K> => e.kind === kind && e.at >= since);
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
