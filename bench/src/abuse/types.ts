import type { Check } from '../types';
import type { AbuseConfig } from './config';
import type { MonitoredSimulator } from './monitor';

/** What a phase's body reports; the runner adds the process figures. */
export interface PhaseOutcome {
  readonly checks: readonly Check[];
  /** RSS growth (peak - start) the documented caps allow during this abuse, in MB, and why. */
  readonly rssBudget: { readonly mb: number; readonly why: string };
  readonly notes?: readonly string[];
}

export interface Phase {
  readonly id: number;
  /** What --only may name it by, beside its number. */
  readonly name: string;
  readonly title: string;
  readonly simulators: ReadonlyArray<'json' | 'legacy'>;
  /** Extra environment of the simulators of this phase. */
  readonly env?: Record<string, string>;
  run(sims: Record<string, MonitoredSimulator>, config: AbuseConfig): Promise<PhaseOutcome>;
}

export { AUTH } from '../harness/payloads';
export const LISTEN_PATH = '/customerapi/channels/listen';

/**
 * RSS growth any phase may show on top of what its documented caps allow: V8's heap growing under
 * load and socket buffers (the soak's simulators grow 50-80 MB under steady load).
 */
export const RSS_HEADROOM_MB = 128;
