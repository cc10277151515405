import { randomBytes } from 'node:crypto';
import { LEGACY_CHANNELS } from '@racedata/legacy-sim';
import type { ScenarioContext } from '../../types';

/** A transient channel: its NonDurable messages go only to STOMP subscribers. */
export const PROBE_CHANNEL: string = LEGACY_CHANNELS.transient[0];
/** Between probes: the journal is read this often while waiting for a delivery. */
const PROBE_EVERY_MS = 250;

/** A payloadKey no client could guess or have printed before. */
export function newPayloadKey(label: string): string {
  return `certify-${label}-${randomBytes(4).toString('hex')}`;
}

export function probeXml(label: string): string {
  return `<CertifyProbe check="${label}"/>`;
}

/** Reads the user's STOMP deliveries from the journal, each entry once. */
export class StompDeliveries {
  private since = 0;
  private readonly seen = new Map<string, number>();

  constructor(private readonly ctx: ScenarioContext) {}

  /** When each payloadKey was delivered to the user over STOMP (ms since the epoch), so far. */
  async read(): Promise<ReadonlyMap<string, number>> {
    const user = encodeURIComponent(this.ctx.user.key);
    const entries = await this.ctx.control.journal(
      `kind=delivered&transport=stomp&user=${user}&since=${this.since}`,
    );
    for (const entry of entries) {
      if (typeof entry.seq === 'number') this.since = Math.max(this.since, entry.seq);
      if (typeof entry.payloadKey === 'string' && typeof entry.time === 'string') {
        this.seen.set(entry.payloadKey, Date.parse(entry.time));
      }
    }
    return this.seen;
  }
}

export interface ProbeOutcome {
  /** The probe that was delivered, and when. */
  readonly delivered?: { readonly key: string; readonly at: number };
  /** Probes injected (ms since the epoch), delivered or not. */
  readonly injected: ReadonlyArray<{ readonly key: string; readonly at: number }>;
}

/**
 * Injects a NonDurable probe every PROBE_EVERY_MS until the journal shows one delivered to the
 * user over STOMP, or `deadline` passes: the delivery is the proof that the client's session is
 * subscribed to a publish destination (the destination is not in the traffic).
 */
export async function probeSubscription(
  ctx: ScenarioContext,
  label: string,
  deadline: number,
): Promise<ProbeOutcome> {
  const deliveries = new StompDeliveries(ctx);
  const injected: Array<{ key: string; at: number }> = [];
  while (!ctx.signal.aborted) {
    const key = newPayloadKey(label);
    const at = ctx.now();
    await ctx.control.inject(PROBE_CHANNEL, false, probeXml(label), key);
    injected.push({ key, at });
    await ctx.wait(PROBE_EVERY_MS);
    const seen = await deliveries.read();
    const hit = injected.find((probe) => seen.has(probe.key));
    if (hit) return { injected, delivered: { key: hit.key, at: seen.get(hit.key) as number } };
    if (ctx.now() >= deadline) break;
  }
  return { injected };
}
