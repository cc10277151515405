/**
 * Issue 30, Medium 9 and the anonymise Lows: `racedata-sim anonymise` as users run it (its own
 * process) on inputs built to hurt it. Every refusal is exit 2 with `file:line` (or the path at
 * fault), nothing is written to OUT, and IN is never written to.
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CLI_BIN } from '@racedata/test-support/sim-process';
import { allFiles, tempFolderEachTest } from './record-process';

const inTemp = tempFolderEachTest('anonymise-hostile-');

const LINE = (payload: unknown) =>
  JSON.stringify({
    at: '2024-05-11T12:00:00.000Z',
    delivery: 'durable',
    channel: 'ResultTrot',
    date: '2024-05-11',
    payload,
  });
const GOOD = LINE({ horse: 'Eldpilen' });

interface Ran {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function anonymise(...args: string[]): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI_BIN, 'anonymise', ...args, '--salt', 's'],
      { timeout: 30_000 },
      (err, stdout, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

function write(file: string, text: string | Buffer): string {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

/** A payload nested `depth` levels (objects and arrays taking turns) below the line object. */
function nested(depth: number): string {
  const open = Array.from({ length: depth }, (_, i) => (i % 2 === 0 ? '{"a":' : '[')).join('');
  const close = Array.from({ length: depth }, (_, i) => (i % 2 === 0 ? '}' : ']'))
    .reverse()
    .join('');
  return `{"at":"2024-05-11T12:00:00.000Z","delivery":"durable","channel":"ResultTrot","date":"2024-05-11","payload":${open}1${close}}`;
}

test.each([2_000, 100_000])(
  'JSON nested %i deep: exit 2 naming file:line, nothing written (before: a stack overflow)',
  async (depth) => {
    const inDir = inTemp('in');
    const file = write(path.join(inDir, 'json', 'day.jsonl'), `${GOOD}\n${nested(depth)}\n`);
    const out = inTemp('out');
    const ran = await anonymise(inDir, out);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toBe(
      `racedata-sim anonymise: ${file}:2: nests deeper than 64 levels (the simulators refuse such a message)\n`,
    );
    expect(existsSync(out) ? allFiles(out) : []).toEqual([]);
  },
);

test('JSON nested to the limit, arrays counted, is anonymised; one level more is refused', async () => {
  const inDir = inTemp('in');
  // The line object is level 1; the payload takes the other 63.
  write(path.join(inDir, 'json', 'day.jsonl'), `${nested(63)}\n`);
  expect((await anonymise(inDir, inTemp('out'))).code).toBe(0);
  write(path.join(inDir, 'json', 'day.jsonl'), `${nested(64)}\n`);
  expect((await anonymise(inDir, inTemp('out2'))).stderr).toContain(
    'day.jsonl:1: nests deeper than 64 levels',
  );
});

test('an OUT inside IN is refused, however it is spelt; IN gets no new file', async () => {
  const inDir = inTemp('in');
  write(path.join(inDir, 'json', 'day.jsonl'), `${GOOD}\n`);
  for (const out of [path.join(inDir, 'json'), path.join(inDir, 'x', '..', 'deeper', 'out')]) {
    const ran = await anonymise(inDir, out);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('is inside IN');
  }
  // OUT outside IN, but its json/ a link into IN.
  const out = inTemp('out');
  mkdirSync(out);
  symlinkSync(path.join(inDir, 'json'), path.join(out, 'json'));
  const ran = await anonymise(inDir, out);
  expect(ran.code).toBe(2);
  expect(ran.stderr).toContain('is inside IN');
  expect(readdirSync(path.join(inDir, 'json'))).toEqual(['day.jsonl']);
  expect(readdirSync(inDir)).toEqual(['json']);
});

test('IN/json as a symbolic link to a folder outside IN is refused, saying where it points', async () => {
  const elsewhere = inTemp('elsewhere');
  write(path.join(elsewhere, 'day.jsonl'), `${GOOD}\n`);
  const inDir = inTemp('in');
  mkdirSync(inDir);
  symlinkSync(elsewhere, path.join(inDir, 'json'));
  const ran = await anonymise(inDir, inTemp('out'));
  expect(ran.code).toBe(2);
  expect(ran.stderr).toContain(`${path.join(inDir, 'json')} is a symbolic link to ${elsewhere}, outside IN`);
});

test('a file name holding a line break is printed quoted, so it cannot forge an output line', async () => {
  const inDir = inTemp('in');
  write(path.join(inDir, 'json', 'day\nreplaced: nothing.jsonl'), `${GOOD}\n`);
  const ran = await anonymise(inDir, inTemp('out'));
  expect(ran.code).toBe(0);
  expect(ran.stdout).toContain('  "json/day\\nreplaced: nothing.jsonl": 1 messages\n');
  expect(ran.stdout.split('\n').filter((line) => line.startsWith('replaced:'))).toHaveLength(1);
  // In a refusal too.
  write(path.join(inDir, 'json', 'day\nreplaced: nothing.jsonl'), `${GOOD}\nnot json\n`);
  const refused = await anonymise(inDir, inTemp('out2'));
  expect(refused.stderr).toContain(
    `${JSON.stringify(path.join(inDir, 'json', 'day\nreplaced: nothing.jsonl'))}:2: `,
  );
});

test('a line that is not UTF-8 is refused with file:line instead of written with U+FFFD', async () => {
  const inDir = inTemp('in');
  const bad = Buffer.concat([
    Buffer.from(`${GOOD}\n`),
    Buffer.from(LINE({ horse: 'Eld' }).replace('Eld', 'E\u00ffld'), 'latin1'),
    Buffer.from('\n'),
  ]);
  const file = write(path.join(inDir, 'json', 'day.jsonl'), bad);
  const out = inTemp('out');
  const ran = await anonymise(inDir, out);
  expect(ran.code).toBe(2);
  expect(ran.stderr).toContain(`${file}:2: not valid UTF-8`);
  expect(existsSync(out) ? allFiles(out) : []).toEqual([]);
});

test('the hidden temporary file a killed run left in OUT is removed by the next run; a running one keeps its own', async () => {
  const inDir = inTemp('in');
  write(path.join(inDir, 'json', 'day.jsonl'), `${GOOD}\n`);
  const out = inTemp('out');
  // The pid of a process that has ended, as a kill -9 leaves it.
  const dead = Number(execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']));
  const stale = write(path.join(out, 'json', `.day.jsonl.${dead}.tmp`), 'half');
  const live = write(path.join(out, 'json', `.other.jsonl.${process.pid}.tmp`), 'busy');
  const ran = await anonymise(inDir, out);
  expect(ran.code).toBe(0);
  expect(ran.stdout).toContain(`removed json/.day.jsonl.${dead}.tmp, left by an interrupted run`);
  expect(existsSync(stale)).toBe(false);
  expect(existsSync(live)).toBe(true);
});
