/** Counting requests per second: the busiest one-second window of a list of requests. */
import type { RequestEvent } from './requests';

export interface BusiestSecond {
  readonly count: number;
  /** The requests of that second, oldest first. */
  readonly requests: readonly RequestEvent[];
}

/** The most requests that started within any one second (a sliding window over start times). */
export function busiestSecond(requests: readonly RequestEvent[]): BusiestSecond {
  const sorted = [...requests].sort((a, b) => a.at - b.at);
  let best: BusiestSecond = { count: 0, requests: [] };
  let from = 0;
  for (let to = 0; to < sorted.length; to++) {
    while (sorted[to]!.at - sorted[from]!.at >= 1000) from++;
    const count = to - from + 1;
    if (count > best.count) best = { count, requests: sorted.slice(from, to + 1) };
  }
  return best;
}
