import type { ControlClient } from './control-client';
import type {
  ClockAdvance,
  CloseConnectionsFilter,
  ResetOptions,
  ResetResult,
  SimState,
} from './control-types';

/** One answer from each simulator. */
export interface PerSimulator<T> {
  readonly json: T;
  readonly legacy: T;
}

/**
 * The control plane of both simulators at once, for the calls a suite makes on both between
 * tests (reset, clearing faults, moving time); anything simulator-specific goes through `json`
 * or `legacy`. Each call goes to both in parallel and answers with both results.
 */
export interface ControlPair {
  readonly json: ControlClient;
  readonly legacy: ControlClient;
  reset(options?: ResetOptions): Promise<PerSimulator<ResetResult>>;
  state(): Promise<PerSimulator<SimState>>;
  clearFaults(): Promise<PerSimulator<number>>;
  closeConnections(filter?: CloseConnectionsFilter): Promise<PerSimulator<number>>;
  /** A user known to only one of the simulators gets a 400 from the other: use `json` or `legacy`. */
  expireTokens(user?: string): Promise<PerSimulator<string[]>>;
  advanceClock(ms: number): Promise<PerSimulator<ClockAdvance>>;
}

export function controlPair(json: ControlClient, legacy: ControlClient): ControlPair {
  const both = async <T>(call: (client: ControlClient) => Promise<T>): Promise<PerSimulator<T>> => {
    const [j, l] = await Promise.all([call(json), call(legacy)]);
    return { json: j, legacy: l };
  };
  return {
    json,
    legacy,
    reset: (options) => both((c) => c.reset(options)),
    state: () => both((c) => c.state()),
    clearFaults: () => both((c) => c.clearFaults()),
    closeConnections: (filter) => both((c) => c.closeConnections(filter)),
    expireTokens: (user) => both((c) => c.expireTokens(user)),
    advanceClock: (ms) => both((c) => c.advanceClock(ms)),
  };
}
