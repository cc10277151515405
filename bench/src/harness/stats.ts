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

/** Bucket k holds values up to 1 µs x STEP^k: every figure read back is within 1% of a sample. */
const STEP = Math.log(1.01);

/**
 * Latencies (ms) counted in logarithmic buckets: what a client process sends the harness instead
 * of every sample, and what the harness adds up over processes and rounds.
 */
export class Histogram {
  readonly counts = new Map<number, number>();
  count = 0;
  /** The exact sum of the samples (for their mean). */
  sum = 0;

  add(ms: number): void {
    this.merge([[ms <= 0.001 ? 0 : Math.ceil(Math.log(ms / 0.001) / STEP), 1]], ms);
  }

  merge(bins: Iterable<readonly [number, number]>, sum = 0): this {
    for (const [k, n] of bins) {
      this.counts.set(k, (this.counts.get(k) ?? 0) + n);
      this.count += n;
    }
    this.sum += sum;
    return this;
  }

  percentile(p: number): number {
    let rank = Math.ceil((p / 100) * this.count);
    for (const k of [...this.counts.keys()].sort((a, b) => a - b)) {
      rank -= this.counts.get(k) as number;
      if (rank <= 0) return 0.001 * Math.exp(k * STEP);
    }
    return Number.NaN;
  }
}
