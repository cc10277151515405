import type { Registry } from 'prom-client';

/** The duration buckets of racedata_http_request_duration_seconds, in seconds. */
export const DURATION_BUCKETS = [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 30, 120] as const;

interface Sample {
  readonly labels: Record<string, string>;
  value: number;
}

interface Timing {
  readonly labels: Record<string, string>;
  /** Cumulative only when exported; here each bucket counts its own observations. */
  readonly buckets: Float64Array;
  sum: number;
  count: number;
}

/** What a prom-client registry asks of a metric: its name and its values on a scrape. */
interface CollectedMetric {
  readonly name: string;
  readonly help: string;
  readonly type: 'counter' | 'histogram';
  readonly aggregator: 'sum';
  get(): Promise<{
    name: string;
    help: string;
    type: string;
    aggregator: string;
    values: Array<{ metricName?: string; labels: Record<string, string>; value: number }>;
  }>;
  reset(): void;
}

/**
 * Request counts and durations kept as plain numbers in maps on the hot path, and turned into
 * Prometheus samples only when /metrics is scraped: prom-client's labelled inc() and observe()
 * validate and hash their labels on every call, which the benchmark showed as a real share of a
 * request's CPU.
 */
export class RequestCounts {
  private readonly requests = new Map<string, Sample>();
  private readonly timings = new Map<string, Timing>();

  record(route: string, method: string, status: string, seconds: number): void {
    const key = `${route} ${method} ${status}`;
    let sample = this.requests.get(key);
    if (!sample) {
      sample = { labels: { route, method, status }, value: 0 };
      this.requests.set(key, sample);
    }
    sample.value++;
    const timingKey = `${route} ${method}`;
    let timing = this.timings.get(timingKey);
    if (!timing) {
      timing = {
        labels: { route, method },
        buckets: new Float64Array(DURATION_BUCKETS.length),
        sum: 0,
        count: 0,
      };
      this.timings.set(timingKey, timing);
    }
    const bucket = DURATION_BUCKETS.findIndex((le) => seconds <= le);
    if (bucket >= 0) timing.buckets[bucket]! += 1;
    timing.sum += seconds;
    timing.count++;
  }

  /** Registers the two metrics this class feeds. */
  register(registry: Registry): void {
    registry.registerMetric(this.requestsMetric() as never);
    registry.registerMetric(this.durationsMetric() as never);
  }

  private requestsMetric(): CollectedMetric {
    const name = 'racedata_http_requests_total';
    const help = 'HTTP requests answered, by route, method and status';
    return {
      name,
      help,
      type: 'counter',
      aggregator: 'sum',
      get: async () => ({
        name,
        help,
        type: 'counter',
        aggregator: 'sum',
        values: [...this.requests.values()].map((s) => ({ labels: s.labels, value: s.value })),
      }),
      reset: () => this.requests.clear(),
    };
  }

  private durationsMetric(): CollectedMetric {
    const name = 'racedata_http_request_duration_seconds';
    const help = 'HTTP request duration (a held long poll counts its wait), by route and method';
    return {
      name,
      help,
      type: 'histogram',
      aggregator: 'sum',
      get: async () => {
        const values: Array<{ metricName: string; labels: Record<string, string>; value: number }> = [];
        for (const t of this.timings.values()) {
          let cumulative = 0;
          DURATION_BUCKETS.forEach((le, i) => {
            cumulative += t.buckets[i] ?? 0;
            values.push({
              metricName: `${name}_bucket`,
              labels: { ...t.labels, le: String(le) },
              value: cumulative,
            });
          });
          values.push({ metricName: `${name}_bucket`, labels: { ...t.labels, le: '+Inf' }, value: t.count });
          values.push({ metricName: `${name}_sum`, labels: t.labels, value: t.sum });
          values.push({ metricName: `${name}_count`, labels: t.labels, value: t.count });
        }
        return { name, help, type: 'histogram', aggregator: 'sum', values };
      },
      reset: () => this.timings.clear(),
    };
  }
}
