import fc from 'fast-check';
import { CanonicalJson, numberEnd } from '../../src/seed/canonical-json';

const scanner = new CanonicalJson();
const accepts = (text: string, maxDepth = 64) => {
  const bytes = Buffer.from(text, 'utf8');
  return scanner.valueEnd(bytes, 0, maxDepth) === bytes.length;
};
/** What the store would keep for the text: its JSON.stringify form. */
const canonical = (text: string) => JSON.stringify(JSON.parse(text));

/** Ways of writing the same JSON value that JSON.stringify would not write. */
const rewritten = (value: unknown): fc.Arbitrary<string> =>
  fc.oneof(
    fc.constant(JSON.stringify(value, null, 1)),
    fc.constant(JSON.stringify(value).replace(/:/g, ': ')),
    fc.constant(JSON.stringify(value).replace(/(\d)(?=[,}\]]|$)/g, '$1.0')),
    fc.constant(JSON.stringify(value).replace(/"([a-z])/gi, '"\\u00$1')),
    fc.constant(JSON.stringify(value).replace(/\{"/g, '{"dup":1,"dup":2,"')),
    fc.constant(JSON.stringify(value).replace(/\{/g, '{"7":0,')),
  );

/** A key that starts with a digit, or a string JSON.stringify writes with a \u escape. */
function refusedOnPurpose(value: unknown): boolean {
  // eslint-disable-next-line no-control-regex
  const uEscaped = (s: string) => /[\u0000-\u0007\u000b\u000e-\u001f]|\p{Cs}/u.test(s);
  if (typeof value === 'string') return uEscaped(value);
  if (Array.isArray(value)) return value.some(refusedOnPurpose);
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).some(([k, v]) => /^\d/.test(k) || uEscaped(k) || refusedOnPurpose(v));
  }
  return false;
}

describe('CanonicalJson', () => {
  test('never says yes to text that JSON.stringify would write otherwise (property)', () => {
    fc.assert(
      fc.property(
        fc.jsonValue().chain((value) => rewritten(value)),
        (text) => {
          let parsed: string;
          try {
            parsed = canonical(text);
          } catch {
            expect(accepts(text)).toBe(false);
            return;
          }
          if (accepts(text)) expect(text).toBe(parsed);
        },
      ),
      { numRuns: 3000 },
    );
  });

  test('says yes to what JSON.stringify writes, unless it has an array-index key or a \\u escape (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value);
        expect(accepts(text)).toBe(!refusedOnPurpose(value));
      }),
      { numRuns: 3000 },
    );
  });

  test('unicode text, escapes and numbers in every form (property over arbitrary strings)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        const text = JSON.stringify({ s });
        if (accepts(text)) expect(canonical(text)).toBe(text);
      }),
      { numRuns: 2000 },
    );
  });

  test.each([
    ['{"a":1}', true],
    ['{"a":"Åby \\"north\\"","b":[true,false,null],"c":{}}', true],
    ['{"odds":1.5,"big":1e+21,"tiny":1e-7,"neg":-3,"zero":0}', true],
    ['{"a": 1}', false],
    ['{"a":1.50}', false],
    ['{"a":-0}', false],
    ['{"a":01}', false],
    ['{"a":1E+21}', false],
    ['{"a":0.0000001}', false],
    ['{"a":12345678901234567890}', false],
    ['{"a":"\\/"}', false],
    ['{"a":1,"a":2}', false],
    ['{"a":{"b":1},"b":1}', true],
    ['{"1":1}', false],
    ['{"a":tru}', false],
    ['{"a":1', false],
    ['{"a":1}}', false],
    ['{"a":"tab\there"}', false],
  ])('%s: %s', (text, expected) => {
    expect(accepts(text)).toBe(expected);
  });

  test('leaves an object of more than 64 keys to the parser, so a hostile one costs linear time', () => {
    const object = (n: number) =>
      JSON.stringify(
        Object.fromEntries(Array.from({ length: n }, (_, k) => [`k${String(k).padStart(6, '0')}`, k])),
      );
    expect(accepts(object(64))).toBe(true);
    expect(accepts(object(65))).toBe(false);
    expect(accepts(`{"a":[${object(64)},${object(64)}],"b":${object(64)}}`)).toBe(true);
    expect(accepts(object(200_000))).toBe(false);
  });

  test('refuses invalid UTF-8, which a parser would read as U+FFFD', () => {
    const bytes = Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]);
    expect(scanner.valueEnd(bytes, 0, 64)).toBe(-1);
    const good = Buffer.from('{"a":"Å"}', 'utf8');
    expect(scanner.valueEnd(good, 0, 64)).toBe(good.length);
  });

  test('counts nesting: maxDepth objects and arrays open at once, not one more', () => {
    const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
    expect(accepts(nested(5), 5)).toBe(true);
    expect(accepts(nested(6), 5)).toBe(false);
    expect(accepts(`{"a":${nested(4)}}`, 5)).toBe(true);
    expect(accepts(`{"a":${nested(5)}}`, 5)).toBe(false);
    expect(accepts(nested(100_000), 64)).toBe(false);
  });

  test('numberEnd agrees with String(Number(text)) on every number JSON can write (property)', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => String(d)),
          fc
            .double({ noNaN: true, noDefaultInfinity: true })
            .map((d) => d.toFixed(Math.floor(Math.abs(d)) % 12)),
          fc.stringMatching(/^-?(0|[1-9]\d{0,20})(\.\d{1,20})?([eE][+-]?\d{1,3})?$/),
        ),
        (text) => {
          const bytes = Buffer.from(text, 'latin1');
          const end = numberEnd(bytes, 0);
          const valid = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(text);
          const same = valid && String(Number(text)) === text;
          expect(end === bytes.length).toBe(same);
        },
      ),
      { numRuns: 5000 },
    );
  });
});
