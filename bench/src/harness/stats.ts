/** Nearest-rank percentile of an ascending array. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))] as number;
}

export function distribution(samples: readonly number[] | Float64Array) {
  const sorted = Float64Array.from(samples).sort();
  let sum = 0;
  for (const v of sorted) sum += v;
  return {
    count: sorted.length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    mean: sorted.length > 0 ? sum / sorted.length : Number.NaN,
    max: sorted.length > 0 ? (sorted[sorted.length - 1] as number) : Number.NaN,
  };
}

export type Distribution = ReturnType<typeof distribution>;

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** Per-round ratios a[k] / b[k] of two sides that ran in the same rounds. */
export const perRound = (a: readonly number[], b: readonly number[]) => a.map((x, k) => x / (b[k] as number));

/** Rounds for display without losing small figures. */
export function round(value: number, digits = 2): number {
  if (!Number.isFinite(value)) return value;
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** A growable sample buffer, cheaper than a plain array for hundreds of thousands of numbers. */
export class Samples {
  private data = new Float64Array(1024);
  private n = 0;

  get length(): number {
    return this.n;
  }

  push(value: number): void {
    if (this.n === this.data.length) {
      const next = new Float64Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.n++] = value;
  }

  values(): Float64Array {
    return this.data.subarray(0, this.n);
  }
}

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
    const k = ms <= 0.001 ? 0 : Math.ceil(Math.log(ms / 0.001) / STEP);
    this.counts.set(k, (this.counts.get(k) ?? 0) + 1);
    this.count++;
    this.sum += ms;
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
