/**
 * Clients that get certify's input wrong, each run by the real runner as its own process, all
 * side by side: a RACEDATA_* value echoed back wrongly (a secret garbled, a timing read as
 * seconds), echo lines that hold the wrong thing, an echo output flooded. Each ends in graded
 * verdicts with their reasons, within its time, and with the client stopped; naming a new check
 * under the wrong suite is a usage error before anything starts.
 */
import path from 'node:path';
import { isCertifyError } from '../src/errors';
import { certify } from '../src/run/runner';
import type { Report, Suite } from '../src/types';

const clients = path.join(__dirname, 'fixtures', 'clients');

interface Run {
  readonly report: Report;
  readonly tookMs: number;
  /** The client's process id, as it printed it on stderr. */
  readonly pid: number;
}

async function run(suite: Suite, script: string, only: readonly string[], echo = false): Promise<Run> {
  let pid = 0;
  const started = Date.now();
  const report = await certify({
    suite,
    client: {
      command: process.execPath,
      args: [path.join(clients, script)],
      env: {},
      onOutput: (stream, line) => {
        const printed = stream === 'stderr' ? /^pid (\d+)$/.exec(line) : null;
        if (printed) pid = Number(printed[1]);
      },
    },
    only,
    echo,
    timeoutMs: 80_000,
  });
  return { report, tookMs: Date.now() - started, pid };
}

const summaries = (report: Report) =>
  Object.fromEntries(report.checks.map((c) => [c.id, `${c.status}: ${c.summary}`]));

function expectStopped(pid: number): void {
  expect(pid).toBeGreaterThan(0);
  expect(() => process.kill(pid, 0)).toThrow(/ESRCH/);
}

describe('certify with clients that get its input wrong', () => {
  let garbled: Run;
  let longPoll: Run;
  let ping: Run;
  let wrongLines: Run;
  let flood: Run;
  beforeAll(async () => {
    [garbled, longPoll, ping, wrongLines, flood] = await Promise.all([
      run('events', 'garbles-secret.mjs', [
        'auth-key-secret',
        'gives-up-on-stalled-poll',
        'tolerates-unknown',
        'survives-restart',
      ]),
      run('events', 'misreads-long-poll.mjs', ['gives-up-on-stalled-poll']),
      run('stream', 'misreads-ping-interval.mjs', ['detects-silent-stream']),
      run('stream', 'echoes-wrong-lines.mjs', ['tolerates-unknown'], true),
      run(
        'events',
        'floods-echo.mjs',
        ['gives-up-on-stalled-poll', 'tolerates-unknown', 'survives-restart'],
        true,
      ),
    ]);
  }, 110_000);

  it('grades a client that echoes its secret back wrongly, check by check, saying why', () => {
    expect(summaries(garbled.report)).toEqual({
      'auth-key-secret': expect.stringMatching(
        /^fail: made no GET \/customerapi\/events within 15 s of starting$/,
      ),
      'gives-up-on-stalled-poll': expect.stringMatching(
        /^skip: no GET \/customerapi\/events came to be held within 7 s$/,
      ),
      'tolerates-unknown': expect.stringMatching(
        /^fail: after an event with fields it does not know .*, the normal message after it \(event \d+\) was never fetched within 5 s: it stopped polling$/,
      ),
      'survives-restart': expect.stringMatching(
        /^fail: gave up: no GET \/customerapi\/events within 5\.0 s of the simulator's return/,
      ),
    });
    expect(garbled.report.failed).toBe(3);
    const auth = garbled.report.checks.find((c) => c.id === 'auth-key-secret');
    expect(auth?.evidence.map((e) => e.what)).toContainEqual(
      expect.stringMatching(/^POST \/customerapi\/authenticate\/subscription -> 401 \(\d+ ms\)$/),
    );
  });

  it('fails a timing read wrongly for what it then misses', () => {
    expect(summaries(longPoll.report)).toEqual({
      'gives-up-on-stalled-poll': expect.stringMatching(
        /^fail: never gave up on a poll left unanswered for 9 s/,
      ),
    });
    expect(summaries(ping.report)).toEqual({
      'detects-silent-stream': expect.stringMatching(
        /^fail: kept the silent session open and opened no new one for 8\.0 s/,
      ),
    });
  });

  it('fails echo lines that hold the wrong thing, naming what was never printed', () => {
    expect(summaries(wrongLines.report)).toEqual({
      'tolerates-unknown': expect.stringMatching(
        /^fail: after a Data message with fields it does not know .*, it never printed [0-9a-f-]{36} \(the normal message sent after it\) within 3\.0 s$/,
      ),
    });
  });

  it('grades every check of a client flooding its echo output, and in time', () => {
    expect(flood.report.aborted).toBeUndefined();
    for (const check of flood.report.checks) expect(['pass', 'fail']).toContain(check.status);
    expect(flood.report.checks.map((c) => c.id)).toEqual([
      'gives-up-on-stalled-poll',
      'tolerates-unknown',
      'survives-restart',
    ]);
    // Well within the run's limit: a flood slows certify, it does not stop it.
    expect(flood.tookMs).toBeLessThan(60_000);
  });

  it('leaves no client running', () => {
    for (const done of [garbled, longPoll, ping, wrongLines, flood]) expectStopped(done.pid);
  });

  it('refuses --only naming a new check under the wrong suite before anything starts', async () => {
    const attempt = certify({
      suite: 'listen',
      client: { command: process.execPath, args: [path.join(clients, 'poller.mjs')], env: {} },
      only: ['detects-silent-stream'],
    });
    await expect(attempt).rejects.toThrow(
      '--only: no check "detects-silent-stream" in this run: it is a check of stream, not of listen',
    );
    await attempt.catch((err: unknown) => expect(isCertifyError(err) && err.exitCode).toBe(2));
  });
});
