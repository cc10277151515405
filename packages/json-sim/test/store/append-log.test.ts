import { AppendLog } from '../../src/store/append-log';

interface Item {
  id: number;
  tag?: string;
}

const log = () => new AppendLog<Item>((item) => item.id);

function contents(l: AppendLog<Item>): number[] {
  const out: number[] = [];
  for (let i = 0; i < l.length; i++) out.push((l.at(i) as Item).id);
  return out;
}

describe('AppendLog', () => {
  test('an empty log has length 0 and no first, last, at(0) or shift()', () => {
    const l = log();
    expect(l.length).toBe(0);
    expect(l.first()).toBeUndefined();
    expect(l.last()).toBeUndefined();
    expect(l.at(0)).toBeUndefined();
    expect(l.shift()).toBeUndefined();
    expect(l.length).toBe(0);
    expect(l.upperBound(0)).toBe(0);
  });

  test('push appends at the tail; first, last and at() see logical positions', () => {
    const l = log();
    [10, 20, 30].forEach((id) => l.push({ id }));
    expect(l.length).toBe(3);
    expect(l.first()).toEqual({ id: 10 });
    expect(l.last()).toEqual({ id: 30 });
    expect(contents(l)).toEqual([10, 20, 30]);
    expect(l.at(3)).toBeUndefined();
  });

  test('shift drops the head in order and re-bases logical positions', () => {
    const l = log();
    [1, 2, 3, 4].forEach((id) => l.push({ id }));
    expect(l.shift()).toEqual({ id: 1 });
    expect(l.shift()).toEqual({ id: 2 });
    expect(l.length).toBe(2);
    expect(l.first()).toEqual({ id: 3 });
    expect(l.at(0)).toEqual({ id: 3 });
    expect(l.at(1)).toEqual({ id: 4 });
    expect(l.at(2)).toBeUndefined();
  });

  test('shifting everything empties the log; first/last are undefined and pushing works again', () => {
    const l = log();
    [1, 2].forEach((id) => l.push({ id }));
    l.shift();
    l.shift();
    expect(l.length).toBe(0);
    expect(l.first()).toBeUndefined();
    expect(l.last()).toBeUndefined();
    expect(l.shift()).toBeUndefined();
    l.push({ id: 3 });
    expect(l.first()).toEqual({ id: 3 });
    expect(l.last()).toEqual({ id: 3 });
    expect(l.length).toBe(1);
  });

  test('keeps the same item objects (no copies)', () => {
    const l = log();
    const item = { id: 1, tag: 'x' };
    l.push(item);
    expect(l.first()).toBe(item);
    expect(l.shift()).toBe(item);
  });

  describe('upperBound', () => {
    const l = log();
    [2, 4, 6, 8].forEach((id) => l.push({ id }));

    test.each([
      [0, 0],
      [1, 0],
      [2, 1],
      [3, 1],
      [4, 2],
      [7, 3],
      [8, 4],
      [100, 4],
      [-5, 0],
    ])('upperBound(%d) = %d (first position with a key greater than it)', (key, expected) => {
      expect(l.upperBound(key)).toBe(expected);
    });
  });

  test('upperBound is relative to the kept items after shifts', () => {
    const l = log();
    [1, 2, 3, 4, 5].forEach((id) => l.push({ id }));
    l.shift();
    l.shift();
    expect(l.upperBound(0)).toBe(0);
    expect(l.upperBound(2)).toBe(0);
    expect(l.upperBound(3)).toBe(1);
    expect(l.at(l.upperBound(3))).toEqual({ id: 4 });
    expect(l.upperBound(5)).toBe(3);
  });

  test('stays correct across internal compaction (many thousands of shifts mixed with pushes)', () => {
    const l = log();
    let nextId = 1;
    let oldest = 1;
    for (let round = 0; round < 20; round++) {
      for (let i = 0; i < 700; i++) l.push({ id: nextId++ });
      for (let i = 0; i < 500; i++) expect((l.shift() as Item).id).toBe(oldest++);
      expect(l.length).toBe(nextId - oldest);
      expect(l.first()?.id).toBe(oldest);
      expect(l.last()?.id).toBe(nextId - 1);
      const mid = oldest + Math.floor((nextId - oldest) / 2);
      expect(l.at(l.upperBound(mid))?.id).toBe(mid + 1);
      expect(l.upperBound(oldest - 1)).toBe(0);
      expect(l.upperBound(nextId)).toBe(l.length);
    }
    expect(contents(l)).toEqual(Array.from({ length: nextId - oldest }, (_, i) => oldest + i));
  });
});
