/**
 * Issue 30, Medium 5: one STOMP frame must cost the recorder a bounded amount of memory and
 * time. A CONNECTED with a 30 MB header (in one WebSocket message, or in 1 MB ones) or with
 * 500,000 headers is refused by the bounded parser (core's, the legacy simulator's own: 64
 * headers, 8 KiB a header line) or by the WebSocket message limit, the session ended and tried
 * again later; the process stays under RSS_CAP_MIB and stops in time. (Before: 900 MB and a loop
 * blocked for 6 s; 316 MB.)
 */
import { eventually } from '@racedata/test-support';
import { tempFolderEachTest } from '../record-process';
import { logged, peakRssMiB, recordHostile, stopTimed, STOP_LIMIT_MS, summary } from './hostile-record';
import { startHostileUpstream, type StompMode } from './hostile-upstream';

const inTemp = tempFolderEachTest('hostile-frames-');
/** The record process's peak resident set against these upstreams (a polite run peaks near 75 MiB). */
const RSS_CAP_MIB = 160;

test.each([
  ['huge-header', 'Max payload size exceeded'],
  ['huge-header-split', 'a header line exceeds 8192 bytes'],
  ['many-headers', 'a frame may carry at most 64 headers'],
] as Array<[StompMode, string]>)(
  'STOMP %s: refused with a logged reason, memory bounded, stopped in time',
  async (mode, reason) => {
    const up = await startHostileUpstream({ stomp: mode });
    const rec = recordHostile(up, inTemp('out'), ['--transports', 'stomp']);
    await logged(rec, reason, 15_000);
    // It tries again later, and the next frame is refused the same way.
    await eventually(async () => up.stomp.connects >= 2, 'a second STOMP session', 15_000);
    const peak = peakRssMiB(rec.child.pid as number);
    expect(peak).toBeLessThan(RSS_CAP_MIB);
    const stop = await stopTimed(rec);
    expect(stop.code).toBe(0);
    expect(stop.ms).toBeLessThan(STOP_LIMIT_MS);
    expect(summary(rec)).toContain('record: stopped');
  },
  40_000,
);
