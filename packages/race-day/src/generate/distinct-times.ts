import type { Starter } from '../model/types';

/**
 * Keeps finish times a hundredth apart at least, in their order: only a dead heat (an edge case
 * or an action) may give two runners one time.
 */
export function distinctTimes<S extends Pick<Starter, 'finishSeconds' | 'startNr'>>(
  starters: readonly S[],
): S[] {
  const order = [...starters].sort((a, b) => a.finishSeconds - b.finishSeconds || a.startNr - b.startNr);
  const fixed = new Map<number, number>();
  let last = -1;
  for (const s of order) {
    const time = s.finishSeconds <= last ? Math.round((last + 0.01) * 100) / 100 : s.finishSeconds;
    fixed.set(s.startNr, time);
    last = time;
  }
  return starters.map((s) => ({ ...s, finishSeconds: fixed.get(s.startNr)! }));
}
