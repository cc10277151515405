import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { formatProblem, loadRecordings, shownName } from '@racedata/core';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'recording-bytes-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const LINE =
  '{"at":"2024-05-11T12:00:00.000Z","delivery":"durable","channel":"id","payloadKey":"","xml":"<a n=\\"1\\"/>"}';

test('a recording line that is not UTF-8 refuses its file, naming the line, instead of replaying U+FFFD', async () => {
  const bad = Buffer.concat([
    Buffer.from(`${LINE}\n`),
    Buffer.from(LINE.replace('n=', 'n\u00ff='), 'latin1'),
    Buffer.from('\n'),
  ]);
  writeFileSync(path.join(dir, 'day.jsonl'), bad);
  const loaded = await loadRecordings(dir, 'legacy');
  expect(loaded.messages).toEqual([]);
  expect(loaded.problems).toEqual([
    { file: path.join(dir, 'day.jsonl'), line: 2, message: 'not valid UTF-8' },
  ]);
});

test('a file name that could forge or reorder output is quoted where problems are printed', () => {
  expect(shownName('day.jsonl')).toBe('day.jsonl');
  expect(shownName('Ökby travbana.jsonl')).toBe('Ökby travbana.jsonl');
  expect(shownName('day\nok: 12 messages.jsonl')).toBe('"day\\nok: 12 messages.jsonl"');
  expect(shownName('day\u202egnp.jsonl')).toBe('"day\u202egnp.jsonl"'.replace('\u202e', '\\u202e'));
  expect(formatProblem({ file: 'a\rb.jsonl', line: 3, message: 'not valid JSON' })).toBe(
    '"a\\rb.jsonl":3: not valid JSON',
  );
});
