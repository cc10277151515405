/**
 * Issue 30, Medium 4 and 7: every wait on the upstream ends. A long poll never answered, or a
 * 200 whose body trickles in a byte a second, is abandoned at the request deadline (1.5 times
 * --long-poll-timeout) and asked again with back-off; a STOMP upstream that never answers
 * DISCONNECT's receipt, or sends garbage after CONNECTED, cannot hold a stop: --duration and
 * SIGTERM end the recording within 5 s with its summary and valid files.
 */
import { eventually } from '@racedata/test-support';
import { readLines, tempFolderEachTest } from '../record-process';
import { LONG_POLL_MS, logged, recordHostile, stopTimed, STOP_LIMIT_MS, summary } from './hostile-record';
import { startHostileUpstream, type HostileOptions } from './hostile-upstream';

const inTemp = tempFolderEachTest('hostile-waits-');
const DEADLINE_MS = 1.5 * LONG_POLL_MS;

test.each([
  ['a long poll never answered', { events: 'never-answer', listen: 'never-answer' }, 'no answer within'],
  [
    'a 200 trickling one byte a second',
    { events: 'trickle', listen: 'trickle' },
    'answer body not finished within',
  ],
] as Array<[string, HostileOptions, string]>)(
  '%s is abandoned at the deadline, logged and asked again',
  async (_name, options, reason) => {
    const up = await startHostileUpstream(options);
    const rec = recordHostile(up, inTemp('out'), ['--transports', 'events,listen', '--from-event-id', '0']);
    for (const path of ['/customerapi/events', '/customerapi/channels/listen']) {
      await eventually(async () => up.count(path) >= 3, `3 requests to ${path}`, 15_000);
      const times = up.requests.filter((r) => r.path === path).map((r) => r.at);
      // Each request ran to the deadline, then the back-off: never before, and not much after.
      expect((times[1] as number) - (times[0] as number)).toBeGreaterThanOrEqual(DEADLINE_MS - 50);
      expect((times[1] as number) - (times[0] as number)).toBeLessThan(DEADLINE_MS + 2000);
    }
    await logged(rec, `${reason} ${DEADLINE_MS} ms`);
    const stop = await stopTimed(rec);
    expect(stop.code).toBe(0);
    expect(stop.ms).toBeLessThan(STOP_LIMIT_MS);
  },
  30_000,
);

describe('a STOMP upstream that never answers DISCONNECT, nor the close handshake', () => {
  const options: HostileOptions = { stomp: 'no-disconnect-receipt', data: { stomp: [trackSignal(1)] } };

  test('SIGTERM ends the recording within 5 s with its summary and the files valid', async () => {
    const up = await startHostileUpstream(options);
    const out = inTemp('out');
    const rec = recordHostile(up, out, ['--transports', 'stomp']);
    await logged(rec, 'STOMP subscribed');
    await eventually(async () => readLines(out, 'legacy').length === 1, 'the message to be written', 5000);
    const stop = await stopTimed(rec);
    expect(up.stomp.disconnects).toBe(1);
    expect(stop.code).toBe(0);
    expect(stop.ms).toBeLessThan(STOP_LIMIT_MS);
    expect(summary(rec)).toMatch(/record: stopped .*: 1 messages written/);
    expect(readLines(out, 'legacy')).toHaveLength(1);
  }, 30_000);

  test('--duration ends it within 5 s of the duration too', async () => {
    const up = await startHostileUpstream(options);
    const out = inTemp('out');
    const started = performance.now();
    const rec = recordHostile(up, out, ['--transports', 'stomp', '--duration', '2s']);
    const code = await rec.exited;
    expect(code).toBe(0);
    expect(up.stomp.disconnects).toBe(1);
    expect(performance.now() - started).toBeLessThan(2000 + STOP_LIMIT_MS);
    expect(summary(rec)).toContain('record: duration reached');
    expect(readLines(out, 'legacy')).toHaveLength(1);
  }, 30_000);
});

test('CONNECTED then garbage: the session is ended with a logged reason, reconnected with back-off, and stops in time', async () => {
  const up = await startHostileUpstream({ stomp: 'garbage' });
  const rec = recordHostile(up, inTemp('out'), ['--transports', 'stomp']);
  await logged(rec, 'STOMP frame refused: expected a STOMP command line');
  // Reconnects: 0.25 s, 0.5 s, 1 s apart, never at once.
  await eventually(async () => up.stomp.connects >= 4, '4 STOMP connects', 15_000);
  const times = up.upgrades.map((u) => u.at);
  expect((times[3] as number) - (times[0] as number)).toBeGreaterThanOrEqual(1500);
  const stop = await stopTimed(rec);
  expect(stop.code).toBe(0);
  expect(stop.ms).toBeLessThan(STOP_LIMIT_MS);
  expect(summary(rec)).toContain('record: stopped');
}, 30_000);

function trackSignal(n: number): string {
  return JSON.stringify({
    channel: 'TimeToStart',
    payloadKey: `k${n}`,
    payload: `<TimeToStart n="${n}"/>`,
    timestamp: 'x',
  });
}
