import { seededRandom } from '../../test-support/seeded-random';

// Seeded, so the generated recordings are the same on every run.
export function rng(seed: number) {
  const next = seededRandom(seed);
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return {
    float: (min: number, max: number) => min + next() * (max - min),
    int,
    pick: <T>(items: readonly T[]): T => items[int(0, items.length - 1)]!,
    chance: (p: number) => next() < p,
  };
}

export type Rng = ReturnType<typeof rng>;
