/**
 * Writes the bundled recordings (recordings/README.md) through the race-day generator
 * (packages/race-day), as `racedata-sim race-day` writes any day: one trot and one gallop meeting
 * on 2024-05-11 with a few edge cases, rendered for the legacy simulator (XML) and the JSON
 * simulator. The countdowns keep their last three (start) and two (parade) minutes so the
 * package stays small; everything else is the full day. Seeded: each run writes the same bytes.
 *
 *   npm run recordings            (writes recordings/legacy and recordings/json)
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  dayRecordingFiles,
  generateDay,
  parseEdgeCasesOption,
  type TimelineOptions,
} from '@racedata/race-day';

export const BUNDLED_DAY = {
  date: '2024-05-11',
  seed: 20240511,
  meetings: { trot: 1, gallop: 1 },
  edgeCases: parseEdgeCasesOption(
    'late-scratching,driver-change,gallop-disqualification,photo-finish,result-correction',
  ),
} as const;

export const BUNDLED_TIMELINE: TimelineOptions = { countdowns: { startSeconds: 180, paradeSeconds: 120 } };

/** Every recording file, keyed by its path below recordings/. */
export function generateRecordings(): Map<string, string> {
  return dayRecordingFiles(generateDay(BUNDLED_DAY), BUNDLED_TIMELINE);
}

if (require.main === module) {
  const root = path.resolve(__dirname, '..', 'recordings');
  const files = generateRecordings();
  // The day's files replace the old ones: a renamed track leaves no stale file behind.
  for (const kind of ['legacy', 'json']) {
    for (const name of readdirSync(path.join(root, kind)))
      if (name.endsWith('.jsonl')) rmSync(path.join(root, kind, name));
  }
  for (const [rel, text] of files) {
    const file = path.join(root, rel);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
    console.log(
      `${path.relative(process.cwd(), file)}: ${text.split('\n').length - 1} messages, ${text.length} chars`,
    );
  }
}
