/**
 * Stopping and starting again: SIGINT leaves valid files and prints the summary; a re-run with the
 * same --out continues after the last recorded eventId and after the last listen message, writing
 * nothing twice; a broken recordings directory is refused with the file and line, untouched.
 */
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseRecordingLine } from '@racedata/core';
import { eventually } from '@racedata/test-support';
import {
  allFiles,
  expectNoSecret,
  injectXml,
  postJsonMessage,
  pairArgs,
  readLines,
  startPair,
  startRecord,
  type SimPair,
  tempFolderEachTest,
} from './record-process';

const inTemp = tempFolderEachTest('record-resume-');

async function post(pair: SimPair, n: number): Promise<void> {
  await postJsonMessage(pair, {
    channel: 'ResultTrot',
    date: '2026-05-11',
    trackId: 5,
    raceNr: 1,
    payload: { n },
  });
  await injectXml(pair, 'id', 'Durable', `k${n}`, `<Result n="${n}"/>`);
}

const jsonNumbers = (out: string) => readLines(out, 'json').map((l) => (l.payload as { n: number }).n);
const legacyNumbers = (out: string) =>
  readLines(out, 'legacy').map((l) => Number(/n="(\d+)"/.exec(String(l.xml))?.[1]));

function expectValidFiles(out: string): void {
  for (const file of allFiles(out).filter((f) => f.endsWith('.jsonl') && !f.includes('.recorder'))) {
    const kind = file.includes(`${path.sep}json${path.sep}`) ? 'json' : 'legacy';
    const text = readFileSync(file, 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    for (const line of text.split('\n').filter(Boolean))
      expect(parseRecordingLine(kind, line, file).ok).toBe(true);
  }
}

test('SIGINT ends with valid files and a summary; a re-run continues after what was recorded', async () => {
  const pair = await startPair();
  const out = inTemp('out');
  const args = ['--out', out, ...pairArgs(pair), '--transports', 'events,listen', '--progress-interval', '0'];
  await post(pair, 1);
  await post(pair, 2);

  // Everything kept, from eventId 0; the listen queue holds the legacy messages sent before.
  const first = startRecord([...args, '--from-event-id', '0']);
  await eventually(
    async () => jsonNumbers(out).length === 2 && legacyNumbers(out).length === 2,
    'the backlog',
    10_000,
  );
  await post(pair, 3);
  await eventually(
    async () => jsonNumbers(out).length === 3 && legacyNumbers(out).length === 3,
    'message 3',
    10_000,
  );
  expect(await first.interrupt()).toBe(0);
  expect(first.stdout()).toMatch(/record: stopped after [\d.]+ s: 6 messages written/);
  expect(first.stdout()).toContain('last eventId 3');
  expectValidFiles(out);

  // Sent while no recorder runs: the next run must pick them up, and nothing before them again.
  await post(pair, 4);
  await post(pair, 5);
  const second = startRecord(args);
  await eventually(
    async () => jsonNumbers(out).length >= 5 && legacyNumbers(out).length >= 5,
    'the resumed run',
    10_000,
  );
  // Log lines reach stderr in batches (up to 10 ms after they are logged), not with the files.
  await eventually(
    async () => second.stderr().includes('continuing after the last recorded event'),
    'the resumed run to say it continues after the last recorded event',
    10_000,
  );
  await post(pair, 6);
  await eventually(
    async () => jsonNumbers(out).length >= 6 && legacyNumbers(out).length >= 6,
    'message 6',
    10_000,
  );
  expect(await second.interrupt()).toBe(0);
  expect(jsonNumbers(out)).toEqual([1, 2, 3, 4, 5, 6]);
  expect(legacyNumbers(out)).toEqual([1, 2, 3, 4, 5, 6]);
  expectValidFiles(out);
  expectNoSecret(out, [first.stdout(), first.stderr(), second.stdout(), second.stderr()]);
}, 40_000);

test('without --from-event-id only new events are recorded', async () => {
  const pair = await startPair();
  await post(pair, 1);
  const out = inTemp('out');
  const rec = startRecord([
    '--out',
    out,
    ...pairArgs(pair),
    '--transports',
    'events',
    '--progress-interval',
    '0',
  ]);
  await eventually(async () => rec.stderr().includes('"msg":"authenticated"'), 'authentication', 10_000);
  await eventually(
    async () => {
      const state = (await (await fetch(`${pair.json.base}/_sim/state`)).json()) as {
        users: Record<string, { heldPolls: number }>;
      };
      return (state.users.testuser?.heldPolls ?? 0) >= 1;
    },
    'a held poll after the newest event',
    10_000,
  );
  await post(pair, 2);
  await eventually(async () => jsonNumbers(out).length >= 1, 'message 2', 10_000);
  expect(await rec.interrupt()).toBe(0);
  expect(jsonNumbers(out)).toEqual([2]);
}, 30_000);

test('a broken recordings directory is refused with file and line, and nothing in it changes', async () => {
  const out = inTemp('out');
  mkdirSync(path.join(out, 'json'), { recursive: true });
  const good =
    '{"at":"2026-05-11T10:00:00.000Z","delivery":"durable","channel":"RaceDayTrot","date":"2026-05-11","payload":{}}\n';
  const file = path.join(out, 'json', '2026-05-11.jsonl');
  writeFileSync(file, `${good}{"at":"nonsense"}\n`);
  appendFileSync(file, '{"torn":');
  const before = readFileSync(file);
  const rec = startRecord(['--out', out, '--json-url', 'http://127.0.0.1:9', '--progress-interval', '0']);
  expect(await rec.exited).toBe(2);
  expect(rec.stderr()).toContain(`${file}:2:`);
  expect(readFileSync(file)).toEqual(before);
}, 20_000);
