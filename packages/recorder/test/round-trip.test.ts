/**
 * The end-to-end round trip: a short piece of the bundled race day replayed with its
 * timing into a pair of simulators, recorded from them over all four transports by the record
 * command, then the recording replayed into a fresh pair and recorded again. The same messages
 * must come out in the same order, with their gaps kept.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { eventually } from '@racedata/test-support';
import { CLI_BIN } from '@racedata/test-support/sim-process';
import {
  content,
  expectNoSecret,
  readLines,
  startPair,
  recordConnected,
  type Line,
  type SimPair,
  tempFolderEachTest,
} from './record-process';

const BUNDLED = path.resolve(__dirname, '..', '..', '..', 'recordings');
/** Channels of testuser's JSON subscription, and how many of each the piece takes. */
const QUOTAS: Record<string, number> = {
  RaceDayTrot: 1,
  StartListTrot: 3,
  ResultTrot: 2,
  TimeToStartTrot: 10,
  SplitTimesTrot: 6,
  Last500MetersTrot: 6,
};
/** Gaps (ms) given to the piece in turn: pauses a replay must keep, and bursts it must not spread. */
const GAPS = [20, 220, 0, 90, 320, 40];
/**
 * How the gaps between lines may differ. A replay waits each recorded gap from the moment the
 * previous message went, so a moment the machine gives to other work (430 ms seen with another
 * test run and builds beside this one on 2 cores) lengthens one gap and moves every later line;
 * gaps are compared one by one, not lines against the first. A replay that dropped the gaps or
 * played them at another speed shortens every pause and fails.
 */
const PAUSE_MS = 200;
const PAUSE_SLACK_MS = 100;
const TYPICAL_MS = 100;

const inTemp = tempFolderEachTest('record-round-trip-');

/** The same lines of the bundled JSON and legacy trot files (they match line for line), re-timed. */
function writePiece(target: string): { json: Line[]; legacy: Line[] } {
  const read = (folder: string) =>
    readFileSync(
      path.join(
        BUNDLED,
        folder,
        readdirSync(path.join(BUNDLED, folder)).find((f) => f.endsWith('-trot.jsonl'))!,
      ),
      'utf8',
    )
      .split('\n')
      .filter(Boolean)
      .map((text) => JSON.parse(text) as Line);
  const json = read('json');
  const legacy = read('legacy');
  const taken = new Map<string, number>();
  const picked: number[] = [];
  json.forEach((line, i) => {
    const channel = String(line.channel);
    const quota = QUOTAS[channel] ?? 0;
    // Spread over the day: every seventh line of a frequent channel, every one of a rare one.
    if ((taken.get(channel) ?? 0) >= quota || (channel === 'TimeToStartTrot' && i % 7 !== 0)) return;
    taken.set(channel, (taken.get(channel) ?? 0) + 1);
    picked.push(i);
  });
  let at = Date.parse('2026-05-11T10:00:00.000Z');
  const piece = { json: [] as Line[], legacy: [] as Line[] };
  picked.forEach((i, n) => {
    at += n === 0 ? 0 : (GAPS[n % GAPS.length] as number);
    const stamp = new Date(at).toISOString();
    piece.json.push({ ...(json[i] as Line), at: stamp });
    piece.legacy.push({ ...(legacy[i] as Line), at: stamp });
  });
  for (const folder of ['json', 'legacy'] as const) {
    mkdirSync(path.join(target, folder), { recursive: true });
    writeFileSync(
      path.join(target, folder, 'piece.jsonl'),
      piece[folder].map((line) => JSON.stringify(line)).join('\n') + '\n',
    );
  }
  return piece;
}

function replayInto(target: string, recordings: string, kind: 'json' | 'legacy'): Promise<number | null> {
  const child = spawn(
    process.execPath,
    [
      CLI_BIN,
      'replay',
      '--target',
      target,
      '--recordings',
      recordings,
      '--kind',
      kind,
      '--progress-interval',
      '0',
    ],
    { env: { ...process.env, LOG_LEVEL: 'warn' }, stdio: 'ignore' },
  );
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/** Replays `recordings` into a fresh pair while the record command records it into `out`. */
async function recordReplay(recordings: string, out: string, expected: { json: number; legacy: number }) {
  const pair: SimPair = await startPair();
  const rec = await recordConnected(pair, out, ['--from-event-id', '0']);
  const codes = await Promise.all([
    replayInto(pair.json.base, recordings, 'json'),
    replayInto(pair.legacy.base, recordings, 'legacy'),
  ]);
  expect(codes).toEqual([0, 0]);
  await eventually(
    async () =>
      readLines(out, 'json').length >= expected.json && readLines(out, 'legacy').length >= expected.legacy,
    'every message to be recorded',
    10_000,
  );
  expect(await rec.interrupt()).toBe(0);
  expect(rec.stdout()).toMatch(/record: stopped after [\d.]+ s: \d+ messages written/);
  expectNoSecret(out, [rec.stdout(), rec.stderr()]);
  return { json: readLines(out, 'json'), legacy: readLines(out, 'legacy') };
}

/** The gap before each line but the first, in ms. */
function gaps(lines: readonly Line[]): number[] {
  return lines.slice(1).map((line, i) => Date.parse(line.at) - Date.parse((lines[i] as Line).at));
}

const middle = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

function expectTimed(got: readonly Line[], want: readonly Line[]): void {
  const wanted = gaps(want);
  const pairs = gaps(got).map((gap, i) => ({ gap, want: wanted[i] as number }));
  // Pauses are kept (a late line before one shortens it; a third may be), bursts stay shorter
  // than pauses, and most gaps are close to their recorded length.
  const pauses = pairs.filter((p) => p.want >= PAUSE_MS).length;
  const shortened = pairs.filter((p) => p.want >= PAUSE_MS && p.gap < p.want - PAUSE_SLACK_MS);
  const bursts = pairs.filter((p) => p.want === 0).map((p) => p.gap);
  const typical = middle(pairs.map((p) => Math.abs(p.gap - p.want)));
  const seen = pairs.map((p) => `${p.want}->${p.gap}`).join(' ');
  expect({
    shortened: shortened.length <= pauses / 3,
    burst: middle(bursts) < PAUSE_MS,
    typical: typical <= TYPICAL_MS,
    seen,
  }).toEqual({
    shortened: true,
    burst: true,
    typical: true,
    seen,
  });
}

/** The same messages in the same order, per delivery (durable and transient travel apart). */
function expectSameMessages(got: readonly Line[], want: readonly Line[], view: (line: Line) => string): void {
  for (const delivery of ['durable', 'transient']) {
    expect(got.filter((l) => l.delivery === delivery).map(view)).toEqual(
      want.filter((l) => l.delivery === delivery).map(view),
    );
  }
}

// The listen answer names no channel or payloadKey: a recorded listen line is channel `id`.
const legacyView = (line: Line) =>
  line.delivery === 'durable' ? `durable ${String(line.xml)}` : content(line);

test('a replayed race-day piece is recorded over all four transports and replays to the same messages and timing', async () => {
  const source = inTemp('source');
  const piece = writePiece(source);
  expect(piece.json.length).toBeGreaterThan(20);
  const sizes = { json: piece.json.length, legacy: piece.legacy.length };

  const first = await recordReplay(source, inTemp('first'), sizes);
  expectSameMessages(first.json, piece.json, content);
  expectSameMessages(first.legacy, piece.legacy, legacyView);
  // The JSON and the legacy side arrive interleaved by time, so each is timed against the piece.
  expectTimed(first.json, piece.json);
  expectTimed(first.legacy, piece.legacy);
  expect(first.json.filter((l) => l.delivery === 'durable').length).toBe(6);

  const second = await recordReplay(inTemp('first'), inTemp('second'), sizes);
  expectSameMessages(second.json, first.json, content);
  expectSameMessages(second.legacy, first.legacy, content);
  expectTimed(second.json, first.json);
  expectTimed(second.legacy, first.legacy);
}, 60_000);
