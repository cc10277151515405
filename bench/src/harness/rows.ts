import type { Comparison, Figure, Verdict } from '../types';
import { chargedTo } from './processes';

export type CompareInput = Pick<Comparison, 'scenario' | 'unit' | 'ours'> &
  Partial<Pick<Comparison, 'target' | 'note' | 'ratioLabel'>> & {
    readonly bare: number | null;
    readonly bareName?: string;
    readonly peers?: readonly Figure[];
    /** Which direction is good for this figure (latency: lower; throughput: higher). */
    readonly better: 'lower' | 'higher';
    /** Bound on ours / bare: at most this when lower is better, at least this when higher is. */
    readonly bound?: number;
    /** The target also requires beating every peer that was measured. */
    readonly beatPeers?: boolean;
    /**
     * Per-round ratios of paired rounds (ours and bare back to back): the ratio is then their
     * median, with their lowest and highest as the spread, rather than ours / bare.
     */
    readonly ratios?: readonly number[];
  };

/** A table row: ratio ours / bare and the verdict against the (never loosened) target. */
export function compare(input: CompareInput): Comparison {
  const { ours, bare, better, ratios } = input;
  const finite = ratios?.filter((r) => Number.isFinite(r)) ?? [];
  const plain = ours !== null && bare !== null && bare > 0 ? round(ours / bare, 3) : null;
  const ratio = !ratios ? plain : finite.length > 0 ? round(median(finite), 3) : null;
  const notes = input.note ? [input.note] : [];
  let verdict: Verdict = ours === null || (input.target !== undefined && ratio === null) ? 'N/A' : 'INFO';
  if (input.target !== undefined && ratio !== null && ours !== null) {
    const bound = input.bound ?? 1;
    let ok = better === 'lower' ? ratio <= bound : ratio >= bound;
    const measured = input.beatPeers ? (input.peers ?? []).filter((p) => p.value !== null) : [];
    for (const peer of measured) {
      if (better === 'lower' ? ours < (peer.value as number) : ours > (peer.value as number)) continue;
      ok = false;
      notes.push(`behind ${peer.name}`);
    }
    if (input.beatPeers && measured.length === 0) notes.push('peers not measured in this run');
    verdict = ok ? 'PASS' : 'MISS';
  }
  const baselines = [{ name: input.bareName ?? 'bare Node', value: bare }, ...(input.peers ?? [])];
  const spread = [round(Math.min(...finite), 3), round(Math.max(...finite), 3)] as const;
  return {
    ...{ scenario: input.scenario, unit: input.unit, ours: ours === null ? null : round(ours, 2) },
    baselines: baselines.map((b) => ({ ...b, value: b.value === null ? null : round(b.value, 2) })),
    ratio,
    ratioLabel:
      input.ratioLabel ?? (ratios ? 'ours / bare, median of paired rounds (min–max)' : 'ours / bare'),
    ...(finite.length > 0 && { ratioSpread: spread }),
    ...{ target: input.target ?? '—', verdict, ...(notes.length > 0 && { note: notes.join('; ') }) },
  };
}

/**
 * A row whose target is an absolute bound (B an event, events/s, a heap ratio) rather than a
 * ratio to a baseline measured in the same run; no target makes it INFO.
 */
export function absoluteRow(
  input: Pick<Comparison, 'scenario' | 'unit' | 'note'> & {
    readonly ours: number;
    /** The target and whether `ours` meets it. */
    readonly target?: readonly [text: string, ok: boolean];
  },
): Comparison {
  const { scenario, unit, ours, target, note } = input;
  const verdict = !Number.isFinite(ours) ? 'N/A' : !target ? 'INFO' : target[1] ? 'PASS' : 'MISS';
  const rest = { baselines: [], ratio: null, ratioLabel: '—', target: target?.[0] ?? '—', verdict } as const;
  return { scenario, unit, ours: round(ours, 2), ...rest, ...(note && { note }) };
}

/** Median, or null for no values. */
export const med = (values: readonly number[]) => (values.length > 0 ? median(values) : null);
export const count = (n: number) => n.toLocaleString('en-US');
/** Each round's pair of figures, so a stalled round shows rather than hides inside the median. */
export const rounds = (a: readonly number[], b: readonly number[], digits = 0) =>
  a.map((x, k) => `${round(x, digits)}/${round(b[k] as number, digits)}`).join(', ');

type PairedInput = Omit<CompareInput, 'ours' | 'bare' | 'ratios'> & {
  ours: readonly number[];
  bare: readonly number[];
};

/** A row of two sides' per-round figures: medians, and the median of the per-round ratios. */
export const pairedRow = (input: PairedInput) =>
  compare({
    ...input,
    ours: med(input.ours),
    bare: med(input.bare),
    ratios: perRound(input.ours, input.bare),
  });

/**
 * Runs `turn` for each side once per round, the order reversed every other round, so drift and
 * other load on the machine fall on every side alike; each turn is charged with the CPU time of
 * the side's server process (`pids`, from /proc) per unit of work it reports.
 */
export async function pairedRounds<K extends string, T extends { readonly units: number }>(
  roundsCount: number,
  pids: Readonly<Record<K, number>>,
  turn: (side: K) => Promise<T>,
): Promise<Record<K, Array<T & { cpuMsPerUnit: number }>>> {
  const sides = Object.keys(pids) as K[];
  type Turn = T & { cpuMsPerUnit: number };
  const results = Object.fromEntries(sides.map((s) => [s, []])) as unknown as Record<K, Turn[]>;
  for (let r = 0; r < roundsCount; r++) {
    for (const side of r % 2 === 0 ? sides : [...sides].reverse()) {
      const { result, cpuMs: used } = await chargedTo(pids[side], () => turn(side));
      results[side].push({ ...result, cpuMsPerUnit: result.units > 0 ? used / result.units : Number.NaN });
    }
  }
  return results;
}

/** Nearest-rank percentile of an ascending array. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;
}

/** Count, p50, p99, mean and max of samples, rounded for display. */
export function distribution(samples: readonly number[]) {
  const sorted = Float64Array.from(samples).sort();
  const at = (p: number) => round(percentile(sorted, p));
  const mean = round(sorted.reduce((sum, v) => sum + v, 0) / sorted.length);
  return { count: sorted.length, p50: at(50), p99: at(99), mean, max: at(100) };
}

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  if (sorted.length % 2 === 1) return sorted[mid] as number;
  return ((sorted[mid - 1] ?? NaN) + (sorted[mid] ?? NaN)) / 2;
}

/** Per-round ratios a[k] / b[k] of two sides that ran in the same rounds. */
export const perRound = (a: readonly number[], b: readonly number[]) => a.map((x, k) => x / (b[k] as number));

/** Rounds for display without losing small figures. */
export const round = (value: number, digits = 2) =>
  Number.isFinite(value) ? Math.round(value * 10 ** digits) / 10 ** digits : value;

/** Samples in chunks (client processes, rounds) as one ascending array: every percentile exact. */
export function sorted(chunks: ReadonlyArray<ArrayLike<number>>): Float64Array {
  const all = new Float64Array(chunks.reduce((n, c) => n + c.length, 0));
  chunks.reduce((at, c) => (all.set(c, at), at + c.length), 0);
  return all.sort();
}
