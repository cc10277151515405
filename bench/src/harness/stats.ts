/** Nearest-rank percentile of an ascending array. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;
}

/** Count, p50, p99, mean and max of samples, rounded for display. */
export function distribution(samples: readonly number[]) {
  const sorted = Float64Array.from(samples).sort();
  const at = (p: number) => round(percentile(sorted, p));
  const mean = round(sorted.reduce((sum, v) => sum + v, 0) / sorted.length);
  return { count: sorted.length, p50: at(50), p99: at(99), mean, max: at(100) };
}

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  if (sorted.length % 2 === 1) return sorted[mid] as number;
  return ((sorted[mid - 1] ?? NaN) + (sorted[mid] ?? NaN)) / 2;
}

/** Per-round ratios a[k] / b[k] of two sides that ran in the same rounds. */
export const perRound = (a: readonly number[], b: readonly number[]) => a.map((x, k) => x / (b[k] as number));

/** Rounds for display without losing small figures. */
export const round = (value: number, digits = 2) =>
  Number.isFinite(value) ? Math.round(value * 10 ** digits) / 10 ** digits : value;

/** Samples in chunks (client processes, rounds) as one ascending array: every percentile exact. */
export function sorted(chunks: ReadonlyArray<ArrayLike<number>>): Float64Array {
  const all = new Float64Array(chunks.reduce((n, c) => n + c.length, 0));
  chunks.reduce((at, c) => (all.set(c, at), at + c.length), 0);
  return all.sort();
}
