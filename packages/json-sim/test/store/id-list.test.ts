import fc from 'fast-check';
import { BlockArena } from '../../src/store/block-arena';
import { IdList } from '../../src/store/id-list';

function contents(list: IdList): number[] {
  const out: number[] = [];
  for (let i = 0; i < list.length; i++) out.push(list.at(i));
  return out;
}

describe('IdList', () => {
  test('an empty list has length 0, no first or last, and upperBound 0', () => {
    const list = new IdList();
    expect(list.length).toBe(0);
    expect(list.first()).toBeUndefined();
    expect(list.last()).toBeUndefined();
    expect(list.upperBound(5)).toBe(0);
    list.shift();
    expect(list.length).toBe(0);
  });

  test('a list of thousands of ids grows by whole blocks and reads back in order', () => {
    const list = new IdList();
    for (let id = 10; id < 10 + 5000 * 3; id += 3) list.push(id);
    for (let k = 0; k < 1200; k++) list.shift();
    expect(list.length).toBe(3800);
    expect(list.first()).toBe(10 + 1200 * 3);
    expect(list.at(1000)).toBe(10 + 2200 * 3);
    expect(list.last()).toBe(10 + 4999 * 3);
    expect(list.upperBound(10 + 2200 * 3)).toBe(1001);
    const blocks = (list as unknown as { blocks: Uint32Array[] }).blocks;
    // 5000 pushed: 9 full blocks and a tenth, the first two and a half dropped (whole ones freed).
    expect(blocks.map((b) => b.length)).toEqual(Array(blocks.length).fill(512));
    expect(blocks.length).toBe(8);
  });

  test('full blocks come from the store’s arena and go back to it when dropped, for any list to reuse', () => {
    const arena = new BlockArena(4);
    const a = new IdList(2, 4, arena);
    const b = new IdList(2, 4, arena);
    for (let id = 1; id <= 14; id++) a.push(id);
    const taken = (a as unknown as { blocks: Uint32Array[] }).blocks.slice(1);
    // The first block grew from 2 to 4 entries on its own; the next three are the arena's.
    expect(taken.map((block) => block.buffer.byteLength > block.byteLength)).toEqual([true, true, true]);
    for (let k = 0; k < 8; k++) a.shift();
    for (let id = 100; id <= 110; id++) b.push(id);
    const reused = (b as unknown as { blocks: Uint32Array[] }).blocks.slice(1);
    expect(reused.filter((block) => taken.includes(block))).toHaveLength(1);
    expect(contents(a)).toEqual([9, 10, 11, 12, 13, 14]);
    expect(contents(b)).toEqual([...Array(11).keys()].map((k) => 100 + k));
    // An emptied list hands back every arena block it holds; a widened block is its own.
    while (a.length > 0) a.shift();
    a.push(1);
    for (let k = 0; k < 5; k++) a.push(2 ** 40 + k);
    expect(contents(a)).toEqual([1, ...[0, 1, 2, 3, 4].map((k) => 2 ** 40 + k)]);
  });

  test('a block holds 2-byte offsets while its ids lie within 65,535 of its first, and widens past that', () => {
    const arena = new BlockArena(4);
    const list = new IdList(4, 4, arena);
    const ids = [1, 9, 17, 25, 33, 41, 41 + 65_535, 41 + 65_536, 200_000, 200_008];
    for (const id of ids) list.push(id);
    expect(contents(list)).toEqual(ids);
    const blocks = (list as unknown as { blocks: (Uint16Array | Uint32Array)[] }).blocks;
    // The second block's ids spread past 65,535 from its first: that block, and only it, is wider.
    expect(blocks.map((block) => block.constructor.name)).toEqual([
      'Uint16Array',
      'Uint32Array',
      'Uint16Array',
    ]);
    expect(list.upperBound(41 + 65_535)).toBe(7);
    // Dropped blocks go back to the arena by width, and a later list takes each width again.
    while (list.length > 0) list.shift();
    const other = new IdList(4, 4, arena);
    for (let id = 1; id <= 9; id++) other.push(id * 30_000);
    expect(contents(other)).toEqual([...Array(9).keys()].map((k) => (k + 1) * 30_000));
  });

  test('keeps ids beyond 32 bits exactly', () => {
    const list = new IdList();
    const big = Number.MAX_SAFE_INTEGER - 1;
    list.push(2 ** 32 + 1);
    list.push(big);
    expect(contents(list)).toEqual([2 ** 32 + 1, big]);
    expect(list.upperBound(2 ** 32 + 1)).toBe(1);
  });

  test('matches an array model through pushes, shifts, growth and gaps past 32 bits (property)', () => {
    fc.assert(
      fc.property(
        // Blocks of 4 entries make a few hundred operations cross many blocks.
        fc.constantFrom(4, 512),
        fc.boolean(),
        fc.constantFrom(1, 2 ** 40),
        fc.array(
          fc.oneof(
            { weight: 10, arbitrary: fc.constant(-1) },
            { weight: 10, arbitrary: fc.integer({ min: 1, max: 5 }) },
            // Past what a block of 2-byte offsets holds, within what 4 bytes do.
            { weight: 2, arbitrary: fc.integer({ min: 20_000, max: 70_000 }) },
            { weight: 1, arbitrary: fc.integer({ min: 2 ** 31, max: 2 ** 33 }) },
          ),
          { maxLength: 1500 },
        ),
        (blockEntries, withArena, start, ops) => {
          const list = new IdList(1, blockEntries, withArena ? new BlockArena(blockEntries) : undefined);
          const model: number[] = [];
          let next = start;
          for (const op of ops) {
            if (op === -1) {
              list.shift();
              model.shift();
            } else {
              next += op;
              list.push(next);
              model.push(next);
            }
            expect(list.length).toBe(model.length);
          }
          expect(contents(list)).toEqual(model);
          expect(list.first()).toBe(model[0]);
          expect(list.last()).toBe(model.at(-1));
          for (const probe of [0, ...model, next + 1]) {
            const expected = model.findIndex((id) => id > probe);
            expect(list.upperBound(probe)).toBe(expected < 0 ? model.length : expected);
          }
        },
      ),
    );
  });
});
