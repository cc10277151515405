/** A redirect must never carry the key, the secret or the token to another
 * origin. The recorder follows no redirect at all (same origin included): a 3xx on
 * authenticate, on a long poll or on a WebSocket upgrade is an upstream error, logged once per
 * cause with its status and target, and waited out like a 5xx.
 */
import { eventually } from '@racedata/test-support';
import { tempFolderEachTest } from '../record-process';
import {
  DEFAULT_CREDENTIALS,
  expectQuietOutput,
  loggedLines,
  recordHostile,
  stopTimed,
  STOP_LIMIT_MS,
  summary,
} from './hostile-record';
import { startHostileUpstream, type HostileUpstream } from './hostile-upstream';

const inTemp = tempFolderEachTest('hostile-redirects-');
const { key, secret } = DEFAULT_CREDENTIALS;
// The Location names the secret, so a log line that printed the target raw would show it.
const redirectPath = `/steal/${encodeURIComponent(secret)}`;

/**
 * The first `n` requests to `path` came at least `ms` apart from first to last: no hot loop.
 * Stops waiting early once `failed` says the run went wrong another way.
 */
async function spacedOut(
  up: HostileUpstream,
  path: string,
  n: number,
  ms: number,
  failed: () => boolean = () => false,
): Promise<void> {
  await eventually(async () => up.count(path) >= n || failed(), `${n} requests to ${path}`, 15_000);
  expect(up.other.requests).toEqual([]);
  const times = up.requests.filter((r) => r.path === path).map((r) => r.at);
  expect((times[n - 1] as number) - (times[0] as number)).toBeGreaterThanOrEqual(ms);
}

test('a redirect on authenticate is not followed: the key and secret reach no other origin, and attempts back off', async () => {
  const up = await startHostileUpstream({ auth: 'redirect', redirectPath });
  const rec = recordHostile(up, inTemp('out'), ['--transports', 'events,listen']);
  // Back-off 0.5 s, 1 s, 2 s: the 4th attempt comes 3.5 s after the first (a hot loop: 40 ms).
  await spacedOut(up, '/customerapi/authenticate/subscription', 4, 3000, () => up.other.requests.length > 0);
  expect(up.other.requests).toEqual([]);
  expect(await loggedLines(rec, '"status":307', 1)).toBe(1);
  expect(rec.stderr()).toContain(`"target":"${up.other.base}/steal/[redacted]"`);
  const stop = await stopTimed(rec);
  expect(stop).toEqual({ code: 0, ms: expect.any(Number) });
  expect(stop.ms).toBeLessThan(STOP_LIMIT_MS);
  expect(summary(rec)).toContain('record: stopped');
  expectQuietOutput(rec, [key, secret, `${key}:${secret}`]);
}, 30_000);

test('a redirect on events and listen is an upstream error: nothing goes to the Location, and polls back off', async () => {
  const up = await startHostileUpstream({ events: 'redirect', listen: 'redirect', redirectPath });
  const rec = recordHostile(up, inTemp('out'), ['--transports', 'events,listen']);
  // Back-off 0.25 s, 0.5 s, 1 s: the 4th poll comes 1.75 s after the first.
  await spacedOut(up, '/customerapi/events', 4, 1500);
  await spacedOut(up, '/customerapi/channels/listen', 4, 1500);
  expect(up.other.requests).toEqual([]);
  expect(await loggedLines(rec, 'redirect 302 to', 1)).toBe(1);
  expect(await loggedLines(rec, 'redirect 307 to', 1)).toBe(1);
  const stop = await stopTimed(rec);
  expect(stop.code).toBe(0);
  expect(stop.ms).toBeLessThan(STOP_LIMIT_MS);
  expectQuietOutput(rec, [key, secret, up.token]);
}, 30_000);

test('a redirected WebSocket upgrade (event stream, STOMP) is not followed and is retried with back-off', async () => {
  const up = await startHostileUpstream({ upgrades: 'redirect', redirectPath });
  const rec = recordHostile(up, inTemp('out'), ['--transports', 'stream,stomp']);
  await eventually(async () => up.upgrades.length >= 6, '6 upgrades', 15_000);
  const times = up.upgrades.map((u) => u.at);
  // Two transports, each backing off 0.25 s, 0.5 s: 6 upgrades take at least 0.75 s.
  expect((times[5] as number) - (times[0] as number)).toBeGreaterThanOrEqual(700);
  expect(up.other.requests).toEqual([]);
  expect(await loggedLines(rec, '"status":307', 2)).toBe(2);
  const stop = await stopTimed(rec);
  expect(stop.code).toBe(0);
  expect(stop.ms).toBeLessThan(STOP_LIMIT_MS);
  expectQuietOutput(rec, [key, secret, up.token]);
}, 30_000);
