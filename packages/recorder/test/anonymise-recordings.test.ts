import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadRecordings } from '@racedata/core';
import { anonymiseRecordings, createAnonymiser } from '@racedata/recorder';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'anonymise-files-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const JSON_LINE =
  '{"at":"2024-05-11T12:00:00.000Z","delivery":"durable","channel":"ResultTrot","date":"2024-05-11","trackId":901,"raceNr":1,"payload":{"placings":[{"place":1,"startNr":7,"horse":"Eldpilen","driver":"Anna Ek"}]}}';
const LEGACY_LINE = JSON.stringify({
  at: '2024-05-11T12:00:00.000Z',
  delivery: 'durable',
  channel: 'Result',
  payloadKey: 'Result-2024-05-11-901-1',
  xml: '<Result date="2024-05-11" trackId="901"><Placings><Placing place="1" startNr="7" horse="Eldpilen" driver="Anna Ek"/></Placings></Result>',
});

function write(rel: string, text: string): string {
  const file = path.join(dir, rel);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

const run = (inDir: string, outDir: string, extra: { overwrite?: boolean; redact?: string[] } = {}) =>
  anonymiseRecordings({
    inDir,
    outDir,
    overwrite: extra.overwrite ?? false,
    anonymiser: createAnonymiser({ salt: 's', anonymiseNames: true, redact: extra.redact ?? [] }),
  });

test('writes OUT/json and OUT/legacy with the same names; the loader reads them; BOM, CRLF and blank lines are taken', async () => {
  write('in/json/day.jsonl', `\uFEFF${JSON_LINE}\r\n\r\n${JSON_LINE}\n`);
  write('in/legacy/day.jsonl', `${LEGACY_LINE}\n`);
  write('in/legacy/.hidden.jsonl', 'not read');
  write('in/legacy/notes.txt', 'not read');
  const result = await run(path.join(dir, 'in'), path.join(dir, 'out'));
  expect(result.files.map((f) => [f.kind, path.relative(dir, f.output), f.messages])).toEqual([
    ['legacy', path.join('out', 'legacy', 'day.jsonl'), 1],
    ['json', path.join('out', 'json', 'day.jsonl'), 2],
  ]);
  expect(readdirSync(path.join(dir, 'out', 'legacy'))).toEqual(['day.jsonl']);
  const json = await loadRecordings(path.join(dir, 'out'), 'json');
  const legacy = await loadRecordings(path.join(dir, 'out'), 'legacy');
  expect([json.problems, legacy.problems]).toEqual([[], []]);
  expect(json.messages).toHaveLength(2);
  const out =
    readFileSync(path.join(dir, 'out', 'json', 'day.jsonl'), 'utf8') +
    readFileSync(path.join(dir, 'out', 'legacy', 'day.jsonl'), 'utf8');
  expect(out).not.toMatch(/Eldpilen|Anna Ek/);
  expect(result.summary).toEqual({ replaced: { horse: 3, driver: 3 }, redacted: {}, messages: 3 });
});

test('a line keeps its own key order, so only the names change its bytes', async () => {
  const shuffled =
    '{"payload":{"horse":"Eldpilen","odds":1.5},"raceNr":1,"channel":"ResultTrot","date":"2024-05-11","delivery":"durable","at":"2024-05-11T12:00:00Z"}';
  const legacy =
    '{"xml":"<Result horse=\\"Eldpilen\\"/>","payloadKey":"","channel":"Result","delivery":"durable","at":"2024-05-11T12:00:00Z"}';
  write('in/json/a.jsonl', `${shuffled}\n`);
  write('in/legacy/a.jsonl', `${legacy}\n`);
  await run(path.join(dir, 'in'), path.join(dir, 'out'));
  const read = (kind: string) => readFileSync(path.join(dir, 'out', kind, 'a.jsonl'), 'utf8');
  expect(read('json').replace(/"horse":"[^"]+"/, '"horse":"Eldpilen"')).toBe(`${shuffled}\n`);
  expect(read('legacy').replace(/horse=\\"[^\\]+\\"/, 'horse=\\"Eldpilen\\"')).toBe(`${legacy}\n`);
  expect(read('json') + read('legacy')).not.toContain('Eldpilen');
});

test('a bad line stops the run naming file:line, and nothing is written to OUT', async () => {
  write('in/json/a.jsonl', `${JSON_LINE}\n`);
  write('in/json/b.jsonl', `${JSON_LINE}\n${JSON_LINE.replace('"durable"', '"sometimes"')}\n`);
  const err = await run(path.join(dir, 'in'), path.join(dir, 'out')).catch((e: Error) => e);
  expect(err).toMatchObject({ code: 'ANONYMISE_INPUT_INVALID' });
  expect((err as Error).message).toBe(
    `${path.join(dir, 'in', 'json', 'b.jsonl')}:2: "delivery" must be "durable" or "transient"`,
  );
  expect(existsSync(path.join(dir, 'out'))).toBe(false);
});

test('XML the anonymiser cannot walk is a bad line too; OUT keeps only what it held before', async () => {
  write('out/keep.txt', 'mine');
  write('in/legacy/a.jsonl', `${LEGACY_LINE}\n${LEGACY_LINE.replace('</Result>', '')}\n`);
  const err = await run(path.join(dir, 'in'), path.join(dir, 'out')).catch((e: Error) => e);
  expect(err).toMatchObject({ code: 'ANONYMISE_INPUT_INVALID' });
  expect((err as Error).message).toMatch(/a\.jsonl:2: XML not well-formed: <Result> is never closed$/);
  expect(readdirSync(path.join(dir, 'out'))).toEqual(['keep.txt']);
});

test('a dropped field takes what is inside it, and nothing in it is counted', async () => {
  write('in/json/a.jsonl', `${JSON_LINE.replace('"payload":{', '"payload":{"x":{"y":1},')}\n`);
  const ok = await run(path.join(dir, 'in'), path.join(dir, 'out'), { redact: ['payload.x', 'y'] });
  expect(ok.summary.redacted).toEqual({ 'payload.x': 1 });
});

test('refuses OUT equal to IN, an IN without recordings, and an existing file in OUT unless told to replace it', async () => {
  write('in/json/a.jsonl', `${JSON_LINE}\n`);
  const inDir = path.join(dir, 'in');
  await expect(run(inDir, `${inDir}/.`)).rejects.toMatchObject({
    code: 'ANONYMISE_INPUT_INVALID',
    message: expect.stringContaining('OUT must differ from IN'),
  });
  await expect(run(path.join(dir, 'missing'), path.join(dir, 'out'))).rejects.toMatchObject({
    message: expect.stringContaining('does not exist'),
  });
  write('empty/json/readme.md', '');
  await expect(run(path.join(dir, 'empty'), path.join(dir, 'out'))).rejects.toMatchObject({
    message: expect.stringContaining('holds no json'),
  });
  write('out/json/a.jsonl', 'old');
  await expect(run(inDir, path.join(dir, 'out'))).rejects.toMatchObject({
    message: expect.stringContaining('already exists'),
  });
  expect(readFileSync(path.join(dir, 'out', 'json', 'a.jsonl'), 'utf8')).toBe('old');
  await run(inDir, path.join(dir, 'out'), { overwrite: true });
  expect(readFileSync(path.join(dir, 'out', 'json', 'a.jsonl'), 'utf8')).toMatch(/^\{"at":/);
  // OUT's json/ folder being IN's own: even with overwrite the input is never written.
  await expect(run(inDir, path.join(dir, 'in', 'json', '..'), { overwrite: true })).rejects.toMatchObject({
    code: 'ANONYMISE_INPUT_INVALID',
  });
  expect(readFileSync(path.join(dir, 'in', 'json', 'a.jsonl'), 'utf8')).toBe(`${JSON_LINE}\n`);
});

test('a file with no message is refused, as the loader refuses it', async () => {
  write('in/json/a.jsonl', '\n\n');
  await expect(run(path.join(dir, 'in'), path.join(dir, 'out'))).rejects.toMatchObject({
    message: `${path.join(dir, 'in', 'json', 'a.jsonl')}: holds no messages`,
  });
});
