/**
 * Writes the bundled recordings (recordings/README.md): one invented trotting meeting and one
 * invented gallop meeting on the same day, each rendered for the legacy simulator (XML) and the
 * JSON simulator. Every name and id is made up. Seeded, so each run writes the same bytes.
 *
 *   npm run recordings            (writes recordings/legacy and recordings/json)
 */
import path from 'node:path';
import { DATE, PLANS, SEED } from './recordings/day-plan';
import { jsonLine } from './recordings/json-events';
import { legacyLine } from './recordings/legacy-xml';
import { buildMeeting } from './recordings/meeting-model';
import { rng } from './recordings/prng';
import { events } from './recordings/timeline';
import { writeRecordings } from './recordings/write-files';

/** Every recording file, keyed by its path below recordings/. */
export function generateRecordings(): Map<string, string> {
  const r = rng(SEED);
  const files = new Map<string, string>();
  const taken = new Set<string>();
  for (const plan of PLANS) {
    const meeting = buildMeeting(r, plan, taken);
    const evs = events(r, meeting);
    const name = `${DATE}-${plan.track.toLowerCase()}-${plan.sport}.jsonl`;
    files.set(`legacy/${name}`, evs.map((ev) => legacyLine(meeting, ev) + '\n').join(''));
    files.set(`json/${name}`, evs.map((ev) => jsonLine(meeting, ev) + '\n').join(''));
  }
  return files;
}

if (require.main === module) {
  writeRecordings(path.resolve(__dirname, '..', 'recordings'), generateRecordings());
}
