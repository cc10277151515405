import type { Traffic, TrafficEvent, TrafficKind, TrafficOf } from '../types';

interface Waiter {
  readonly kind: TrafficKind;
  readonly test: (event: TrafficEvent) => boolean;
  readonly resolve: (event: TrafficEvent | undefined) => void;
}

/** Events kept of each kind; a client that hot-loops for a minute stays within memory, oldest dropped first. */
export const TRAFFIC_CAP = 50_000;
/**
 * Lines a client printed (--echo stdout) kept: a client that floods its output keeps the newest
 * this many, and evicts none of its requests, which are kept apart.
 */
export const CLIENT_LINES_CAP = 20_000;

/**
 * What the certify server saw, in order, and waits for what comes next. stop() ends every wait
 * (undefined), so no scenario outlives its run.
 */
export class TrafficLog implements Traffic {
  private readonly byKind = new Map<TrafficKind, TrafficEvent[]>();
  private readonly waiters = new Set<Waiter>();
  private stopped = false;

  constructor(private readonly cap = TRAFFIC_CAP) {}

  record(event: TrafficEvent): void {
    let events = this.byKind.get(event.kind);
    if (events === undefined) this.byKind.set(event.kind, (events = []));
    events.push(event);
    const cap = event.kind === 'client-line' ? Math.min(this.cap, CLIENT_LINES_CAP) : this.cap;
    // Trimmed a quarter past the cap at a time: a flood costs O(1) a line, not a shift of the whole log.
    if (events.length > cap + Math.ceil(cap / 4)) events.splice(0, events.length - cap);
    if (this.waiters.size === 0) return;
    for (const waiter of [...this.waiters]) {
      if (waiter.kind === event.kind && waiter.test(event)) {
        this.waiters.delete(waiter);
        waiter.resolve(event);
      }
    }
  }

  all(): readonly TrafficEvent[] {
    // Kinds are kept apart; a stable sort by time puts them back in the order they were seen.
    return [...this.byKind.values()].flat().sort((a, b) => a.at - b.at);
  }

  of<K extends TrafficKind>(kind: K, since = 0): ReadonlyArray<TrafficOf<K>> {
    const events = (this.byKind.get(kind) ?? []) as Array<TrafficOf<K>>;
    return since <= 0 ? [...events] : events.filter((e) => e.at >= since);
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
