import type { CertificationCheck, CertificationSource, CertificationState } from '@racedata/control';
import { countsAsFailure } from '../report/build-report';
import type { CheckResult } from '../types';
import type { CertifyTimings, CheckInfo, Suite } from '../types';
import type { ProgressEvent } from './progress';

export interface BoardOptions {
  readonly suite: Suite;
  /** The client command line; undefined with --attach. */
  readonly client: string | undefined;
  readonly timings: CertifyTimings;
  /** The scenarios the run plays, each with only the checks the selection keeps. */
  readonly scenarios: ReadonlyArray<{ readonly name: string; readonly checks: readonly CheckInfo[] }>;
  /** Real time, ms since the epoch. */
  readonly now: () => number;
}

/**
 * One suite's certification as the console and GET /_sim/certification show it: the progress
 * events of the run folded into a CertificationState. Every selected check is listed from the
 * start (pending, with its rule), so the page shows what is still to come.
 */
export class CertificationBoard implements CertificationSource {
  /** The counts are derived from the checks when asked, never kept beside them. */
  private state: Omit<CertificationState, 'passed' | 'failed'>;
  private readonly listeners = new Set<() => void>();

  constructor(options: BoardOptions) {
    const checks = options.scenarios.flatMap((scenario) =>
      scenario.checks.map((check) => pending(scenario.name, check)),
    );
    this.state = {
      suite: options.suite,
      client: options.client ?? 'attached',
      attached: options.client === undefined,
      timings: { ...options.timings },
      startedAt: new Date(options.now()).toISOString(),
      phase: 'waiting',
      checks,
    };
  }

  current(): CertificationState {
    const { checks } = this.state;
    return {
      ...this.state,
      passed: checks.filter((c) => c.status === 'pass').length,
      failed: checks.filter(failsTheRun).length,
    };
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Takes in one progress event of this board's suite. */
  fold(event: ProgressEvent): void {
    if (event.suite !== this.state.suite) return;
    switch (event.type) {
      case 'suite-start':
        return;
      case 'client-ready':
        return this.update({ clientReadyAfterMs: event.afterMs });
      case 'scenario-start': {
        // A check the board was not given at the start still shows (a definition's scenario may
        // list a check only when it plays).
        const known = new Set(this.state.checks.map((c) => c.id));
        const added = event.checks.filter((c) => !known.has(c.id)).map((c) => pending(event.name, c));
        return this.update({
          phase: 'playing',
          scenario: event.name,
          checks: [...this.state.checks, ...added],
        });
      }
      case 'check': {
        const { result } = event;
        const graded: CertificationCheck = {
          id: result.id,
          scenario: this.state.checks.find((c) => c.id === result.id)?.scenario ?? this.state.scenario ?? '',
          required: result.required,
          status: result.status,
          summary: result.summary,
          ...(result.expectedFailure === true && { expectedFailure: true }),
          evidence: result.evidence,
        };
        const checks = this.state.checks.some((c) => c.id === result.id)
          ? this.state.checks.map((c) => (c.id === result.id ? graded : c))
          : [...this.state.checks, graded];
        return this.update({ checks });
      }
      case 'foreign':
        return this.update({ foreign: { count: event.count, sample: event.sample } });
      case 'suite-end': {
        const { scenario: _playing, ...rest } = this.state;
        this.state = {
          ...rest,
          phase: event.aborted === undefined ? 'finished' : 'aborted',
          ...(event.aborted !== undefined && { aborted: event.aborted.replace(/^not graded: /, '') }),
        };
        return this.changed();
      }
    }
  }

  private update(change: Partial<Omit<CertificationState, 'passed' | 'failed'>>): void {
    this.state = { ...this.state, ...change };
    this.changed();
  }

  private changed(): void {
    for (const listener of [...this.listeners]) listener();
  }
}

/** Counted as the report counts it (build-report.ts), so the page and the report agree. */
function failsTheRun(check: CertificationCheck): boolean {
  return check.status !== 'pending' && countsAsFailure(check as CheckResult);
}

function pending(scenario: string, check: CheckInfo): CertificationCheck {
  return {
    id: check.id,
    scenario,
    required: check.required,
    status: 'pending',
    summary: check.rule,
    evidence: [],
  };
}
