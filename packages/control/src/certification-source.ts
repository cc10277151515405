import type { CertificationState, CertificationSummary } from './wire';

/**
 * A certification running on this simulator, as `racedata-sim certify` hands it in (its board).
 * The control plane only reads it: certify depends on control, never the other way round.
 */
export interface CertificationSource {
  /** The certification as it is now; undefined before it has started. */
  current(): CertificationState | undefined;
  /**
   * Calls `listener` after each change, so the console stream sends the new state at once
   * instead of at its next look; returns the unsubscribe.
   */
  onChange(listener: () => void): () => void;
}

/** GET /_sim/state's short form: where the certification is, counts instead of checks. */
export function certificationSummary(state: CertificationState): CertificationSummary {
  return {
    suite: state.suite,
    phase: state.phase,
    ...(state.scenario !== undefined && { scenario: state.scenario }),
    checks: state.checks.length,
    graded: state.checks.filter((c) => c.status !== 'pending').length,
    passed: state.passed,
    failed: state.failed,
  };
}
