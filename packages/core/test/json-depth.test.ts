import fc from 'fast-check';
import { jsonDepthExceeds, MAX_JSON_DEPTH } from '../src/json-depth';

/** The depth a byte at a time, as the definition reads: the reference the search must agree with. */
function byteByByte(bytes: Uint8Array, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i] as number;
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > limit) return true;
    } else if ((c === 0x7d || c === 0x5d) && depth > 0) {
      depth--;
    }
  }
  return false;
}

describe('jsonDepthExceeds', () => {
  it.each([
    ['{"a":[1,{"b":2}]}', 2, true],
    ['{"a":[1,{"b":2}]}', 3, false],
    ['[[[]]]', 2, true],
    ['"[[[[[["', 1, false],
    ['["\\"[[[[["]', 1, false],
    ['["\\\\",[[[1]]]]', 2, true],
    ['{"k\\"":"v\\\\\\"[[["}', 0, true],
  ])('%j at limit %d: %s', (text, limit, deeper) => {
    expect(jsonDepthExceeds(Buffer.from(text), limit)).toBe(deeper);
  });

  it('answers as a byte-at-a-time scan does, strings, escapes and broken text alike', () => {
    const piece = fc.constantFrom('{', '}', '[', ']', '"', '\\', '\\"', '\\\\', 'a', ',', ':', '1', 'é');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 60 }), fc.integer({ min: 0, max: 6 }), (pieces, limit) => {
        const bytes = Buffer.from(pieces.join(''));
        expect(jsonDepthExceeds(bytes, limit)).toBe(byteByByte(bytes, limit));
        expect(jsonDepthExceeds(new Uint8Array(bytes), limit)).toBe(byteByByte(bytes, limit));
      }),
      { numRuns: 5000 },
    );
  });

  it('refuses a body nested past MAX_JSON_DEPTH behind a megabyte string', () => {
    const body = `{"s":"${'x'.repeat(1 << 20)}","d":${'['.repeat(MAX_JSON_DEPTH + 1)}${']'.repeat(MAX_JSON_DEPTH + 1)}}`;
    expect(jsonDepthExceeds(Buffer.from(body))).toBe(true);
  });
});
