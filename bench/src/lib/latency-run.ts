import type { DeliveryRounds } from './delivery-rounds';
import { distribution, Samples, type Distribution } from './stats';

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
  ours: DeliveryRounds,
  bare: DeliveryRounds,
  plan: LatencyPlan,
): Promise<{ ours: Distribution; bare: Distribution }> {
  const samples = new Map<DeliveryRounds, Samples>([
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
export async function driveFor(target: DeliveryRounds, ms: number): Promise<void> {
  const end = Date.now() + ms;
  let seq = 2_000_000;
  while (Date.now() < end) await target.deliverOne(seq++, undefined);
}
