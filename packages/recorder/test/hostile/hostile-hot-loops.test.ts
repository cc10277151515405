/**
 * An upstream answering at once with something that moves nothing (a page
 * that is no page, a listen answer without XML, hasMore with a cursor that does not advance,
 * eventIds going backwards) must not be asked again at once. Each is an upstream fault: waited
 * out like a 5xx (0.25 s doubling), logged once per cause per interval.
 */
import { eventually } from '@racedata/test-support';
import { tempFolderEachTest } from '../record-process';
import { loggedLines, recordHostile, stopTimed, STOP_LIMIT_MS, summary } from './hostile-record';
import { startHostileUpstream, type HostileOptions, type HostileUpstream } from './hostile-upstream';

const inTemp = tempFolderEachTest('hostile-loops-');

/**
 * Lets the recorder run until the 5th request to `path` (the back-off makes that 0.25 + 0.5 + 1
 * + 2 = 3.75 s after the first; the hot loop of before, about 40 ms), then checks the spacing,
 * that nothing more came in the meantime, and the single log line of the cause.
 */
async function backsOff(
  options: HostileOptions,
  path: string,
  transports: string,
  cause: string,
  /** Answers that did move the recording on before the faults began (the first page). */
  good = 0,
): Promise<HostileUpstream> {
  const up = await startHostileUpstream(options);
  const rec = recordHostile(up, inTemp('out'), ['--transports', transports, '--from-event-id', '0']);
  const n = good + 5;
  await eventually(async () => up.count(path) >= n, `${n} requests to ${path}`, 15_000);
  const times = up.requests.filter((r) => r.path === path).map((r) => r.at);
  expect((times[n - 1] as number) - (times[good] as number)).toBeGreaterThanOrEqual(3000);
  expect(await loggedLines(rec, cause, 1)).toBe(1);
  const stop = await stopTimed(rec);
  expect(stop.code).toBe(0);
  expect(stop.ms).toBeLessThan(STOP_LIMIT_MS);
  expect(summary(rec)).toContain('record: stopped');
  return up;
}

test('malformed event pages back off', async () => {
  await backsOff({ events: 'malformed' }, '/customerapi/events', 'events', '"reason":"malformed event page"');
}, 30_000);

test('malformed listen answers back off', async () => {
  await backsOff(
    { listen: 'malformed' },
    '/customerapi/channels/listen',
    'listen',
    '"reason":"malformed listen answer"',
  );
}, 30_000);

test('hasMore with an eventId that never advances: said so, and the same page is not asked for in a loop', async () => {
  await backsOff(
    { events: 'stuck-cursor' },
    '/customerapi/events',
    'events',
    '"reason":"lastEventId does not advance"',
    1,
  );
}, 30_000);

test('eventIds going backwards: skipped, said so once, and the cursor that does not move backs off', async () => {
  await backsOff({ events: 'backwards' }, '/customerapi/events', 'events', 'going backwards', 1);
}, 30_000);
