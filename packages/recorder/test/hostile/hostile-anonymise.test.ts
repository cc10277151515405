/**
 * With --anonymise or --redact, one upstream XML the anonymiser cannot walk
 * safely (a DOCTYPE, which could define an entity that spells a name) is skipped with a logged
 * reason and counted; the recording goes on. (Before: exit 2 after 0.3 s.)
 */
import { eventually } from '@racedata/test-support';
import { readLines, tempFolderEachTest } from '../record-process';
import { loggedLines, recordHostile, stopTimed, STOP_LIMIT_MS, summary } from './hostile-record';
import { startHostileUpstream } from './hostile-upstream';

const inTemp = tempFolderEachTest('hostile-anonymise-');

test.each([
  ['--anonymise', ['--anonymise', '--salt', 'team-salt']],
  ['--redact', ['--redact', 'odds']],
])(
  'with %s, a listen answer holding a DOCTYPE is skipped and the recording goes on',
  async (_flag, extra) => {
    const up = await startHostileUpstream({
      listen: 'doctype',
      data: { listen: ['<RaceDay n="1" odds="2.5"/>', '<RaceDay n="2" odds="3.5"/>'] },
    });
    const out = inTemp('out');
    const rec = recordHostile(up, out, ['--transports', 'listen', ...extra]);
    await eventually(async () => readLines(out, 'legacy').length === 2, 'the two clean messages', 15_000);
    expect(rec.child.exitCode).toBeNull();
    expect(await loggedLines(rec, 'DOCTYPE and markup declarations are not accepted', 1)).toBe(1);
    const stop = await stopTimed(rec);
    expect(stop.code).toBe(0);
    expect(stop.ms).toBeLessThan(STOP_LIMIT_MS);
    expect(summary(rec)).toContain('1 the anonymiser could not walk safely');
    expect(readLines(out, 'legacy').map((line) => /n="(\d)"/.exec(String(line.xml))?.[1])).toEqual([
      '1',
      '2',
    ]);
  },
  30_000,
);
