/**
 * Issue 30, High 3: `certify --attach` grades only the client it certifies. A noisy neighbour
 * (another process on the port, polling without a token, with another user's token, and
 * authenticating with other credentials, as fast as it can) must change no verdict: its traffic
 * is counted and sampled apart as `foreign`, and appears in no check's evidence. (Before: 6 of
 * the 9 events checks flipped to fail, "its first poll sent none authorization", "no-hot-loop:
 * 86 requests within one second".)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { certify } from '../src/run/runner';
import type { ProgressEvent } from '../src/run/progress';
import { explain, verdicts } from './long-poll-matrix-support';

const examples = path.resolve(__dirname, '..', '..', '..', 'examples', 'certify');
const fixtures = path.join(__dirname, 'fixtures', 'clients');
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

function start(script: string, variables: Readonly<Record<string, string>>): void {
  const child = spawn(process.execPath, [script], { env: { ...process.env, ...variables }, stdio: 'ignore' });
  children.push(child);
}

test('a noisy neighbour changes no verdict of an attached client; its traffic is reported apart as foreign', async () => {
  const events: ProgressEvent[] = [];
  const report = await certify({
    suite: 'events',
    attach: { port: 0 },
    timeoutMs: 90_000,
    progress: (event) => {
      events.push(event);
      if (event.type !== 'suite-start') return;
      // The neighbour first, so its requests come before the client's and during every scenario.
      start(path.join(fixtures, 'noisy-neighbour.mjs'), event.variables);
      setTimeout(() => start(path.join(examples, 'events-client.mjs'), event.variables), 500);
    },
  });
  const failed = report.checks.filter((c) => c.status !== 'pass');
  expect(failed.map(explain)).toEqual([]);
  expect(Object.values(verdicts(report))).toHaveLength(9);
  expect(report.foreign?.count).toBeGreaterThan(20);
  expect(report.foreign?.sample.map((e) => e.what)).toContainEqual(
    expect.stringMatching(
      /^GET \/customerapi\/events\?lastEventId=0&neighbour=1 -> 401 \(\d+ ms\) \[none\]$/,
    ),
  );
  const evidence = report.checks.flatMap((c) => c.evidence.map((e) => e.what));
  expect(evidence.filter((what) => what.includes('neighbour'))).toEqual([]);
  // The console heard of it while it went, and the terminal at the end.
  expect(events.filter((e) => e.type === 'foreign' && e.final)).toHaveLength(1);
}, 120_000);
