import fc from 'fast-check';
import { NdjsonLines } from '../../src/seed/ndjson-lines';
import { generatedEvents } from '../../src/seed/generated-events';

describe('NdjsonLines', () => {
  test('gives the lines of the text, numbered, however the bytes are cut into chunks (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.stringMatching(/^[^\n\r]*$/), { maxLength: 20 }),
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 10 }),
        (lines, finalNewline, cuts) => {
          const text = lines.join('\n') + (finalNewline && lines.length > 0 ? '\n' : '');
          const bytes = Buffer.from(text, 'utf8');
          const seen: Array<[string, number]> = [];
          const splitter = new NdjsonLines((line, n) => seen.push([line.toString('utf8'), n]));
          let at = 0;
          for (const cut of [...cuts.map((c) => c % (bytes.length + 1))].sort((a, b) => a - b)) {
            splitter.push(bytes.subarray(at, Math.max(at, cut)));
            at = Math.max(at, cut);
          }
          splitter.push(bytes.subarray(at));
          splitter.end();
          // What follows the last newline is a line only when it is not empty.
          const expected = text.split('\n');
          if (expected.at(-1) === '') expected.pop();
          expect(seen).toEqual(expected.map((line, i) => [line, i + 1]));
        },
      ),
    );
  });

  test('drops the \\r of \\r\\n line ends', () => {
    const seen: string[] = [];
    const splitter = new NdjsonLines((line) => seen.push(line.toString()));
    splitter.push(Buffer.from('a\r\nb\r'));
    splitter.push(Buffer.from('\nc'));
    splitter.end();
    expect(seen).toEqual(['a', 'b', 'c']);
  });
});

describe('generatedEvents', () => {
  test('makes the count asked for, over the channels and days up to today, with canonical payload JSON', () => {
    const today = Date.UTC(2026, 2, 14);
    const chunks = [...generatedEvents(4500, ['A', 'B', 'C'], today, 1000)];
    expect(chunks.map((c) => c.length)).toEqual([1000, 1000, 1000, 1000, 500]);
    const all = chunks.flat();
    expect(new Set(all.map((e) => e.channel))).toEqual(new Set(['A', 'B', 'C']));
    const dates = all.map((e) => e.date);
    expect(dates).toEqual([...dates].sort());
    expect(dates.at(-1)).toBe('2026-03-14');
    expect(new Set(dates).size).toBe(3);
    for (const e of all.slice(0, 50)) {
      expect(JSON.stringify(JSON.parse(e.payloadJson))).toBe(e.payloadJson);
      expect(e).toMatchObject({
        trackId: expect.any(Number),
        raceNr: expect.any(Number),
        startNr: expect.any(Number),
      });
    }
  });
});
