import { DATE, type Sport } from './day-plan';
import type { Meeting } from './meeting-model';
import { delivery, type Ev } from './messages';

// The JSON API splits every legacy channel by sport: StartList becomes StartListTrot / StartListGallop.
const suffix = (sport: Sport) => (sport === 'trot' ? 'Trot' : 'Gallop');

export function jsonLine(meeting: Meeting, ev: Ev): string {
  const { trackId, sport } = meeting.plan;
  return JSON.stringify({
    at: new Date(ev.at).toISOString(),
    delivery: delivery(ev),
    channel: ev.base + suffix(sport),
    date: DATE,
    trackId,
    raceNr: ev.raceNr,
    startNr: ev.startNr,
    payload: ev.data,
  });
}
