import { cutShort, EXCERPT_CHARS, quoteShort } from '@racedata/core';

describe('cutShort', () => {
  test('keeps input up to the limit as it is', () => {
    expect(cutShort('a'.repeat(EXCERPT_CHARS))).toBe('a'.repeat(EXCERPT_CHARS));
    expect(cutShort('')).toBe('');
  });

  test('cuts longer input to the limit and marks the cut', () => {
    expect(cutShort('Z'.repeat(10_000))).toBe(`${'Z'.repeat(EXCERPT_CHARS)}…`);
    expect(cutShort('abcdef', 3)).toBe('abc…');
  });

  test('never leaves half a surrogate pair', () => {
    // The 64th unit is the first half of a horse: the cut comes before the whole pair.
    expect(cutShort(`${'a'.repeat(63)}🐎tail`)).toBe(`${'a'.repeat(63)}…`);
    const horses = cutShort('🐎'.repeat(40));
    expect(horses).toBe(`${'🐎'.repeat(32)}…`);
    expect(Buffer.from(horses, 'utf8').toString('utf8')).toBe(horses);
  });
});

describe('quoteShort', () => {
  test('is the cut text as a JSON string literal', () => {
    expect(quoteShort('koi8-r')).toBe('"koi8-r"');
    expect(quoteShort('say "hi"\n')).toBe('"say \\"hi\\"\\n"');
    expect(quoteShort('x'.repeat(100), 16)).toBe(`"${'x'.repeat(16)}…"`);
  });
});
