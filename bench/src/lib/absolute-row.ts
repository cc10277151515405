import type { Comparison } from '../types';
import { round } from './stats';

/**
 * A row whose target is an absolute bound (B an event, events/s, a heap ratio) rather than a
 * ratio to a baseline measured in the same run; `target` undefined makes it INFO.
 */
export function absoluteRow(input: {
  readonly scenario: string;
  readonly unit: string;
  readonly ours: number;
  /** The target and whether `ours` meets it. */
  readonly target?: readonly [text: string, ok: boolean];
  readonly note?: string;
}): Comparison {
  const { target } = input;
  const verdict = !Number.isFinite(input.ours) ? 'N/A' : !target ? 'INFO' : target[1] ? 'PASS' : 'MISS';
  return {
    scenario: input.scenario,
    unit: input.unit,
    ours: round(input.ours, 2),
    baselines: [],
    ratio: null,
    ratioLabel: '—',
    target: target?.[0] ?? '—',
    verdict,
    ...(input.note && { note: input.note }),
  };
}
