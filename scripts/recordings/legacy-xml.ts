import { DATE } from './day-plan';
import type { Meeting } from './meeting-model';
import { delivery, type Data, type Ev } from './messages';

const SINGULAR: Record<string, string> = {
  races: 'Race',
  starters: 'Starter',
  positions: 'Position',
  placings: 'Placing',
  disqualified: 'Horse',
  scratched: 'Horse',
};

const escape = (v: unknown) =>
  String(v).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const capital = (s: string) => s[0]!.toUpperCase() + s.slice(1);

/** Scalars become attributes, arrays of objects a wrapper element holding one element each. */
function element(name: string, data: Data): string {
  const attributes = Object.entries(data)
    .filter(([, v]) => typeof v !== 'object')
    .map(([k, v]) => ` ${k}="${escape(v)}"`);
  const children = Object.entries(data)
    .filter(([, v]) => Array.isArray(v))
    .map(
      ([k, v]) =>
        `<${capital(k)}>${(v as Data[]).map((item) => element(SINGULAR[k] ?? 'Item', item)).join('')}</${capital(k)}>`,
    );
  return children.length === 0
    ? `<${name}${attributes.join('')}/>`
    : `<${name}${attributes.join('')}>${children.join('')}</${name}>`;
}

export function legacyLine(meeting: Meeting, ev: Ev): string {
  const { trackId, sport } = meeting.plan;
  const ids = {
    date: DATE,
    trackId,
    sport,
    ...(ev.raceNr ? { raceNr: ev.raceNr } : {}),
    ...(ev.startNr ? { startNr: ev.startNr } : {}),
  };
  const payloadKey = [ev.base, DATE, trackId, ev.raceNr, ev.startNr].filter((x) => x !== undefined).join('-');
  const xml = `<?xml version="1.0" encoding="UTF-8"?>${element(ev.base, { ...ids, ...ev.data })}`;
  return JSON.stringify({
    at: new Date(ev.at).toISOString(),
    delivery: delivery(ev),
    channel: ev.base,
    payloadKey,
    xml,
  });
}
