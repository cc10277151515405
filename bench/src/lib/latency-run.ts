import type { Clients } from './delivery-clients';
import { distribution, Samples, type Distribution } from './stats';

/** One side of a latency comparison: clients connected, one message at a time delivered to all. */
export class LatencyTarget {
  private pending = 0;
  private started = 0;
  private samples: Samples | undefined;
  private done: (() => void) | undefined;
  /** A response or frame as the clients received it (the baseline is posted the same bytes). */
  sample: Buffer | undefined;

  constructor(readonly clients: Clients) {}

  setup(): Promise<void> {
    // A client that fails shows as a message that is not delivered everywhere.
    return this.clients.connect(
      (_client, n, at, body) => {
        this.sample = body;
        for (let k = 0; k < n && this.done; k++) this.received(at);
      },
      () => undefined,
    );
  }

  private received(at: number): void {
    this.samples?.push(at - this.started);
    if (--this.pending > 0) return;
    const done = this.done;
    this.done = undefined;
    done?.();
  }

  /** Posts one message and resolves once every client has it; latencies go into `samples`. */
  async deliverOne(seq: number, samples: Samples | undefined): Promise<void> {
    await this.clients.ready();
    const count = this.clients.count;
    this.pending = count;
    this.samples = samples;
    this.started = performance.now();
    let timer: NodeJS.Timeout | undefined;
    const delivered = new Promise<void>((resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`only ${count - this.pending}/${count} delivered`)), 20_000);
      this.done = resolve;
    });
    try {
      const posted = await this.clients.post(seq);
      if (posted.status >= 300) {
        throw new Error(`${this.clients.name}: HTTP ${posted.status} ${posted.body.toString('utf8')}`);
      }
      await delivered;
    } finally {
      clearTimeout(timer);
      this.done = undefined;
    }
  }

  teardown(): void {
    this.clients.close();
  }
}

export interface LatencyPlan {
  readonly messages: number;
  readonly rounds: number;
  readonly warmup: number;
}

/**
 * Alternates the two targets round by round (which goes first alternates too), so drift in the
 * machine's speed during the run falls on both sides alike.
 */
export async function interleavedLatency(
  ours: LatencyTarget,
  bare: LatencyTarget,
  plan: LatencyPlan,
): Promise<{ ours: Distribution; bare: Distribution }> {
  const samples = new Map<LatencyTarget, Samples>([
    [ours, new Samples()],
    [bare, new Samples()],
  ]);
  let seq = 1_000_000;
  for (const target of [ours, bare]) {
    for (let i = 0; i < plan.warmup; i++) await target.deliverOne(seq++, undefined);
  }
  const perRound = Math.ceil(plan.messages / plan.rounds);
  for (let round = 0; round < plan.rounds; round++) {
    const order = round % 2 === 0 ? [ours, bare] : [bare, ours];
    for (const target of order) {
      for (let i = 0; i < perRound; i++) await target.deliverOne(seq++, samples.get(target));
    }
  }
  return {
    ours: distribution((samples.get(ours) as Samples).values()),
    bare: distribution((samples.get(bare) as Samples).values()),
  };
}

/** Drives only our side for a while (a profiled rerun of a missed measure). */
export async function driveFor(target: LatencyTarget, ms: number): Promise<void> {
  const end = Date.now() + ms;
  let seq = 2_000_000;
  while (Date.now() < end) await target.deliverOne(seq++, undefined);
}
