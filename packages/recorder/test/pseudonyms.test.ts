import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createAnonymiser, HORSE_POOL, PERSON_POOL, type NamePool } from '@racedata/recorder';

const all = (pool: NamePool) => Array.from({ length: pool.size }, (_, i) => pool.at(i));

test('every pool index gives a different name, and the pools are large', () => {
  for (const pool of [HORSE_POOL, PERSON_POOL]) {
    const names = all(pool);
    expect(new Set(names.map((n) => n.toLowerCase())).size).toBe(pool.size);
    expect(pool.size).toBeGreaterThan(25_000);
  }
});

test('no pseudonym can be a name of the bundled day', () => {
  const dir = path.resolve(__dirname, '..', '..', '..', 'recordings', 'json');
  const text = readdirSync(dir)
    .map((file) => readFileSync(path.join(dir, file), 'utf8'))
    .join('\n');
  const bundled = new Set(
    [...text.matchAll(/"(?:horse|driver|jockey|trainer|owner|breeder)":"([^"]+)"/g)].map((m) => m[1]!),
  );
  expect(bundled.size).toBeGreaterThan(100);
  const pseudonyms = new Set([...all(HORSE_POOL), ...all(PERSON_POOL)]);
  expect([...bundled].filter((name) => pseudonyms.has(name))).toEqual([]);
});

function horses(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `Horse ${i}`);
}

function pseudonymsOf(names: string[], salt: string, bookBudgetBytes?: number): string[] {
  const anonymiser = createAnonymiser({
    salt,
    anonymiseNames: true,
    ...(bookBudgetBytes && { bookBudgetBytes }),
  });
  return names.map(
    (horse) =>
      (
        anonymiser.jsonLine({ at: 'x', delivery: 'durable', message: { payload: { horse } } }).message
          .payload as {
          horse: string;
        }
      ).horse,
  );
}

test('collisions are resolved: 3,000 horses get 3,000 different pseudonyms, the same in every run', () => {
  // With ~29,000 pool names, 3,000 hashed names collide about 150 times: resolution is exercised.
  const names = horses(3_000);
  const first = pseudonymsOf(names, 'collide');
  expect(new Set(first).size).toBe(names.length);
  expect(pseudonymsOf(names, 'collide')).toEqual(first);
});

test('past its byte budget the book stops remembering, yet a name keeps its pseudonym', () => {
  const names = horses(500);
  const small = pseudonymsOf([...names, ...names], 'budget', 4_000);
  expect(small.slice(500)).toEqual(small.slice(0, 500));
  // Until the budget ran out, names were chosen as with an unbounded book.
  expect(small.slice(0, 10)).toEqual(pseudonymsOf(names, 'budget').slice(0, 10));
});
