import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ManualClock, silentLogger } from '@racedata/core';
import { CauseLog } from '../src/cause-log';
import { Checkpoint } from '../src/checkpoint';
import { DayFiles } from '../src/day-files';
import { ListenPoller } from '../src/listen-poller';
import { RecordingSink } from '../src/recording-sink';
import { SecretGuard } from '../src/secret-guard';
import { newTransportStats } from '../src/transport-context';
import { UpstreamSession } from '../src/upstream-session';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'listen-poller-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

type Step = { status: number; body?: string } | 'reset';

/** A fake upstream answering authenticate with a token and listen with the steps in turn, then stopping. */
async function run(steps: Step[], resumeSha?: string): Promise<string[]> {
  const abort = new AbortController();
  const fetch = async (url: string): Promise<Response> => {
    if (url.endsWith('/authenticate/subscription')) {
      return new Response('{}', { status: 200, headers: { authorization: 'Bearer tok-123456' } });
    }
    const step = steps.shift();
    if (step === undefined) {
      abort.abort();
      throw new Error('stopped');
    }
    if (step === 'reset') throw Object.assign(new Error('fetch failed'), { cause: { code: 'ECONNRESET' } });
    return new Response(step.body ?? null, { status: step.status });
  };
  const clock = new ManualClock();
  const logger = silentLogger();
  const guard = new SecretGuard();
  const checkpoint = await Checkpoint.open(dir, logger);
  const files = new DayFiles(dir);
  const causes = new CauseLog(logger, clock);
  const sink = new RecordingSink({ files, checkpoint, guard, transformer: undefined, logger, causes, clock });
  const deps = { fetch, clock, logger, guard, causes, signal: abort.signal, requestTimeoutMs: 1000 };
  const session = new UpstreamSession('http://up', 'legacy', { key: 'key-1', secret: 'secret-1' }, deps);
  const ctx = {
    session,
    sink,
    ...deps,
    maxMessageBytes: 1 << 20,
    stats: newTransportStats(),
  };
  const poller = new ListenPoller(ctx, resumeSha);
  const running = poller.run();
  // Back-off pauses run on the manual clock.
  while (!abort.signal.aborted) await clock.advanceAsync(1000, 100);
  await running;
  files.close();
  checkpoint.close();
  const [file] = files.files();
  if (!file) return [];
  return readFileSync(path.join(dir, file), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { xml: string }).xml);
}

const answer = (xml: string) => ({ status: 200, body: JSON.stringify(xml) });

test('the same answer again right after a broken connection is the unconfirmed message sent again', async () => {
  expect(await run([answer('<a/>'), 'reset', answer('<a/>'), answer('<b/>')])).toEqual(['<a/>', '<b/>']);
});

test('the same answer twice in an unbroken run is two messages', async () => {
  expect(await run([answer('<a/>'), answer('<a/>'), { status: 204 }, answer('<a/>')])).toEqual([
    '<a/>',
    '<a/>',
    '<a/>',
  ]);
});

test('malformed answers are skipped and the loop goes on', async () => {
  expect(
    await run([{ status: 200, body: '{"not":"xml"}' }, { status: 200, body: 'garbage' }, answer('<c/>')]),
  ).toEqual(['<c/>']);
});

test('a checkpoint entry whose line never got written falls back to the entry before it', async () => {
  const logger = silentLogger();
  const first = await Checkpoint.open(dir, logger);
  const files = new DayFiles(dir);
  const at = '2026-05-11T10:00:00.000Z';
  const record = (n: number, die = false) =>
    files.append('json', at, `{"n":${n}}`, (place) => {
      first.record({ kind: 'events', eventId: n, source: 'http://up', ...place });
      // The entry went out, then the process died before its line.
      if (die) throw new Error('killed');
    });
  record(1);
  record(2);
  expect(() => record(3, true)).toThrow('killed');
  files.close();
  first.close();
  const second = await Checkpoint.open(dir, logger);
  expect(second.resume.events?.eventId).toBe(2);
  second.close();
});
