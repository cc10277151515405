import { deliveryOf, jsonChannelOf, type DayMessage } from '../timeline/messages';
import { legacyXml, payloadKeyOf } from './legacy-xml';

// Lines of one day share a few thousand seconds; toISOString() per line was a tenth of the work.
const isoCache = new Map<number, string>();

function utcIso(ms: number): string {
  let text = isoCache.get(ms);
  if (text === undefined) {
    text = new Date(ms).toISOString();
    if (isoCache.size >= 50_000) isoCache.clear();
    isoCache.set(ms, text);
  }
  return text;
}

/** A line of a JSON recording (recordings/README.md): the message as POST /api/message takes it. */
export function jsonRecordingLine(m: DayMessage): string {
  return JSON.stringify({
    at: utcIso(m.at),
    delivery: deliveryOf(m),
    channel: jsonChannelOf(m),
    date: m.date,
    trackId: m.trackId,
    raceNr: m.raceNr,
    startNr: m.startNr,
    payload: m.payload,
  });
}

/** A line of a legacy recording: the XML document and its payload key. */
export function legacyRecordingLine(m: DayMessage): string {
  return JSON.stringify({
    at: utcIso(m.at),
    delivery: deliveryOf(m),
    channel: m.channel,
    payloadKey: payloadKeyOf(m),
    xml: legacyXml(m),
  });
}
