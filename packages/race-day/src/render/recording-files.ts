import type { RaceDayPlan } from '../model/types';
import { trackSlug } from '../generate/tracks';
import { dayStreams, mergeStreams } from '../timeline/day-timeline';
import type { DayMessage } from '../timeline/messages';
import type { TimelineOptions } from '../timeline/race-live';
import { jsonRecordingLine, legacyRecordingLine } from './recording-lines';

/**
 * A day as recordings (recordings/README.md): one file per meeting and simulator,
 * `legacy/<date>-<track>-<sport>.jsonl` and `json/...`, each line a message in time order.
 * `--recordings DIR` replays them with their timing. Returns path -> contents.
 */
export function dayRecordingFiles(plan: RaceDayPlan, options: TimelineOptions = {}): Map<string, string> {
  const files = new Map<string, string>();
  const streams = dayStreams(plan, options);
  for (const [m, meeting] of plan.meetings.entries()) {
    const mine = streams.filter((stream) => stream.meeting === m);
    const messages: DayMessage[] = mergeStreams(mine.map((stream) => stream.build()));
    const name = `${plan.date}-${trackSlug(meeting.track)}-${meeting.sport}.jsonl`;
    let legacy = '';
    let json = '';
    for (const m of messages) {
      legacy += `${legacyRecordingLine(m)}\n`;
      json += `${jsonRecordingLine(m)}\n`;
    }
    files.set(`legacy/${name}`, legacy);
    files.set(`json/${name}`, json);
  }
  return files;
}
