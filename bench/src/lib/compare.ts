import type { Comparison, Figure, Verdict } from '../types';
import { median, round } from './stats';

export interface CompareInput {
  readonly scenario: string;
  readonly unit: string;
  readonly ours: number | null;
  readonly bare: number | null;
  readonly bareName?: string;
  readonly peers?: readonly Figure[];
  /** Which direction is good for this figure (latency: lower; throughput: higher). */
  readonly better: 'lower' | 'higher';
  /** Bound on ours / bare: at most this when lower is better, at least this when higher is. */
  readonly bound?: number;
  /** The target also requires beating every peer that was measured. */
  readonly beatPeers?: boolean;
  readonly target?: string;
  readonly note?: string;
  /**
   * Per-round ratios of paired rounds (ours and bare back to back): the ratio is then their
   * median, with their lowest and highest as the spread, rather than ours / bare.
   */
  readonly ratios?: readonly number[];
  /** Overrides 'ours / bare' (or its paired form) when the baseline is not bare. */
  readonly ratioLabel?: string;
}

function beats(ours: number, other: number, better: 'lower' | 'higher'): boolean {
  return better === 'lower' ? ours < other : ours > other;
}

/** A table row: ratio ours / bare and the verdict against the (never loosened) target. */
export function compare(input: CompareInput): Comparison {
  const { ours, bare } = input;
  const finite = input.ratios?.filter((r) => Number.isFinite(r)) ?? [];
  const paired = input.ratios !== undefined;
  const ratio = paired
    ? finite.length > 0
      ? round(median(finite), 3)
      : null
    : ours !== null && bare !== null && bare > 0
      ? round(ours / bare, 3)
      : null;
  const baselines: Figure[] = [{ name: input.bareName ?? 'bare Node', value: bare }, ...(input.peers ?? [])];
  let verdict: Verdict;
  const notes: string[] = input.note ? [input.note] : [];
  if (input.target === undefined) {
    verdict = ours === null ? 'N/A' : 'INFO';
  } else if (ratio === null || ours === null) {
    verdict = 'N/A';
  } else {
    const bound = input.bound ?? 1;
    let ok = input.better === 'lower' ? ratio <= bound : ratio >= bound;
    if (input.beatPeers) {
      for (const peer of input.peers ?? []) {
        if (peer.value === null) continue;
        if (!beats(ours, peer.value, input.better)) {
          ok = false;
          notes.push(`behind ${peer.name}`);
        }
      }
      if ((input.peers ?? []).every((p) => p.value === null)) notes.push('peers not measured in this run');
    }
    verdict = ok ? 'PASS' : 'MISS';
  }
  return {
    scenario: input.scenario,
    unit: input.unit,
    ours: ours === null ? null : round(ours, 2),
    baselines: baselines.map((b) => ({ ...b, value: b.value === null ? null : round(b.value, 2) })),
    ratio,
    ratioLabel:
      input.ratioLabel ?? (paired ? 'ours / bare, median of paired rounds (min–max)' : 'ours / bare'),
    ...(paired &&
      finite.length > 0 && {
        ratioSpread: [round(Math.min(...finite), 3), round(Math.max(...finite), 3)] as const,
      }),
    target: input.target ?? '—',
    verdict,
    ...(notes.length > 0 && { note: notes.join('; ') }),
  };
}
