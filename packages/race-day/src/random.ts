/**
 * Seeded randomness. Every part of a day draws from its own stream, named by a label
 * (`meeting:2`, `race:5:3`, `edge:dead-heat`): a change in how one part draws never moves the
 * others, and the same seed gives the same day byte for byte.
 */
export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  float(min: number, max: number): number;
  /** Whole number in [min, max]. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  /** One of `items`, each as likely as its weight. */
  weighted<T>(items: ReadonlyArray<readonly [T, number]>): T;
  chance(p: number): boolean;
  /** A new array in random order. */
  shuffle<T>(items: readonly T[]): T[];
  /** A stream of its own for a sub-part, independent of how much this one has drawn. */
  fork(label: string): Rng;
}

/** FNV-1a over the label's UTF-16 units, mixed with the seed. */
function mix(seed: number, label: string): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < label.length; i++) {
    h ^= label.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

export function seededRng(seed: number, label = ''): Rng {
  const base = mix(seed >>> 0, label);
  let state = base;
  // mulberry32
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    float: (min, max) => min + next() * (max - min),
    int,
    pick: (items) => items[int(0, items.length - 1)]!,
    weighted(items) {
      const total = items.reduce((sum, [, w]) => sum + w, 0);
      let roll = next() * total;
      for (const [item, w] of items) {
        roll -= w;
        if (roll < 0) return item;
      }
      return items[items.length - 1]![0];
    },
    chance: (p) => next() < p,
    shuffle(items) {
      const out = [...items];
      for (let i = out.length - 1; i > 0; i--) {
        const j = int(0, i);
        [out[i], out[j]] = [out[j]!, out[i]!];
      }
      return out;
    },
    fork: (sub) => seededRng(base, `${label}/${sub}`),
  };
}
