import type { OpenLoopRound } from './open-loop-fan-out';
import { median, percentile, Samples } from './stats';

/** One side's open-loop rounds, per round (for the paired ratios) and over all deliveries. */
export class OpenLoopTally {
  /** Server CPU (user + system) per delivery in each round, µs. */
  readonly cpuUs: number[] = [];
  readonly p50: number[] = [];
  readonly p99: number[] = [];
  readonly delivered: number[] = [];
  private readonly all = new Samples();
  private sortedAll: Float64Array | undefined;
  private cpuTotalUs = 0;
  deliveries = 0;
  lost = 0;
  failedPosts = 0;
  private lagSum = 0;
  private harnessShare = 0;

  add(round: OpenLoopRound, cpuUsPerDelivery: number): void {
    const sorted = Float64Array.from(round.latencies).sort();
    this.cpuUs.push(cpuUsPerDelivery);
    this.p50.push(percentile(sorted, 50));
    this.p99.push(percentile(sorted, 99));
    this.delivered.push(round.deliveredPerSecond);
    for (const v of sorted) this.all.push(v);
    this.sortedAll = undefined;
    this.cpuTotalUs += cpuUsPerDelivery * round.deliveries;
    this.deliveries += round.deliveries;
    this.lost += round.lost;
    this.failedPosts += round.failedPosts;
    this.lagSum += round.postLagMs;
    this.harnessShare = Math.max(this.harnessShare, round.harnessCpuShare);
  }

  get rounds(): number {
    return this.cpuUs.length;
  }

  /** CPU over every round divided by every delivery (not a median of rounds). */
  get cpuPerDelivery(): number | null {
    return this.deliveries > 0 ? this.cpuTotalUs / this.deliveries : null;
  }

  /** Percentile over every delivery of every round. */
  latency(p: number): number | null {
    if (this.all.length === 0) return null;
    this.sortedAll ??= Float64Array.from(this.all.values()).sort();
    return percentile(this.sortedAll, p);
  }

  get deliveredMedian(): number | null {
    return this.delivered.length > 0 ? median(this.delivered) : null;
  }

  /** Mean lateness of the posts against their schedule (ms). */
  get postLagMs(): number {
    return this.rounds > 0 ? this.lagSum / this.rounds : 0;
  }

  /** The harness's busiest round, as a share of one core. */
  get harnessCpuShare(): number {
    return this.harnessShare;
  }
}
