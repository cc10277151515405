import { MinHeap } from '../src/min-heap';

/** Deterministic PRNG so a failure is reproducible. */
function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const numbers = () => new MinHeap<number>((a, b) => a < b);

function drain<T>(heap: MinHeap<T>): T[] {
  const out: T[] = [];
  while (heap.size > 0) out.push(heap.pop() as T);
  return out;
}

describe('MinHeap', () => {
  test('an empty heap has size 0 and pop() returns undefined without changing size', () => {
    const heap = numbers();
    expect(heap.size).toBe(0);
    expect(heap.pop()).toBeUndefined();
    expect(heap.size).toBe(0);
  });

  test('a single item is returned and the heap is empty again', () => {
    const heap = numbers();
    heap.push(42);
    expect(heap.size).toBe(1);
    expect(heap.pop()).toBe(42);
    expect(heap.size).toBe(0);
    expect(heap.pop()).toBeUndefined();
  });

  test('size tracks pushes and pops', () => {
    const heap = numbers();
    [5, 3, 8].forEach((n) => heap.push(n));
    expect(heap.size).toBe(3);
    heap.pop();
    expect(heap.size).toBe(2);
  });

  test('pops in ascending order for descending, ascending and duplicate inputs', () => {
    for (const input of [
      [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
      [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
      [3, 1, 3, 1, 2, 2, 3, 1],
    ]) {
      const heap = numbers();
      input.forEach((n) => heap.push(n));
      expect(drain(heap)).toEqual([...input].sort((a, b) => a - b));
    }
  });

  test('sorts 5,000 pseudo-random numbers like Array.sort', () => {
    const rand = mulberry32(7);
    const input = Array.from({ length: 5000 }, () => Math.floor(rand() * 1000));
    const heap = numbers();
    input.forEach((n) => heap.push(n));
    expect(drain(heap)).toEqual([...input].sort((a, b) => a - b));
  });

  test('interleaved pushes and pops always yield the current minimum', () => {
    const rand = mulberry32(99);
    const heap = numbers();
    const model: number[] = [];
    for (let i = 0; i < 3000; i++) {
      if (model.length > 0 && rand() < 0.4) {
        model.sort((a, b) => a - b);
        expect(heap.pop()).toBe(model.shift());
      } else {
        const n = Math.floor(rand() * 500);
        heap.push(n);
        model.push(n);
      }
      expect(heap.size).toBe(model.length);
    }
  });

  test('uses the supplied ordering (a max-heap with a reversed comparator, objects by key)', () => {
    const max = new MinHeap<number>((a, b) => a > b);
    [4, 10, 1, 7].forEach((n) => max.push(n));
    expect(drain(max)).toEqual([10, 7, 4, 1]);

    const byId = new MinHeap<{ id: number; name: string }>((a, b) => a.id < b.id);
    byId.push({ id: 3, name: 'c' });
    byId.push({ id: 1, name: 'a' });
    byId.push({ id: 2, name: 'b' });
    expect(drain(byId).map((x) => x.name)).toEqual(['a', 'b', 'c']);
  });
});
