import { describeEvent } from '../evidence';
import type { Evidence, TrafficEvent } from '../types';

/** Foreign requests and upgrades described in the report, the first ones. */
export const FOREIGN_SAMPLE = 5;

/** Traffic that was not the certified client's: how much, and the first few, never graded. */
export interface ForeignSummary {
  readonly count: number;
  readonly sample: readonly Evidence[];
}

/**
 * What other processes sent to the certify server while a client was certified with --attach
 * (client-attribution.ts): counted, the first FOREIGN_SAMPLE described, and nothing else kept,
 * so a noisy neighbour costs no memory and appears in no check's evidence.
 */
export class ForeignTraffic {
  private count = 0;
  private readonly sample: Evidence[] = [];
  private readonly listeners = new Set<() => void>();

  record(event: TrafficEvent): void {
    this.count++;
    if (this.sample.length < FOREIGN_SAMPLE) {
      const auth = event.kind === 'request' ? ` [${event.auth}]` : '';
      this.sample.push({ at: new Date(event.at).toISOString(), what: `${describeEvent(event)}${auth}` });
    }
    for (const listener of this.listeners) listener();
  }

  summary(): ForeignSummary {
    return { count: this.count, sample: [...this.sample] };
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
