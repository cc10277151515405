import type { DayMessage } from '../timeline/messages';

type Data = Readonly<Record<string, unknown>>;

/** The element each item of a list is written as, by the list's field name. */
export const ITEM_ELEMENTS: Readonly<Record<string, string>> = {
  races: 'Race',
  starters: 'Starter',
  positions: 'Position',
  placings: 'Placing',
  disqualified: 'Horse',
  nonFinishers: 'Horse',
  scratched: 'Horse',
  demotions: 'Demotion',
  postPositions: 'PostPosition',
};

const SPECIAL = /[&<>"]/;
const escape = (v: unknown): string => {
  if (typeof v !== 'string') return String(v);
  return SPECIAL.test(v)
    ? v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
    : v;
};
const capital = (s: string) => s[0]!.toUpperCase() + s.slice(1);

/**
 * The legacy XML rule (docs/race-days.md): scalars are attributes; an object is a child element
 * named after its field; a list is a wrapper element named after its field holding one element
 * per item. Empty lists are left out.
 */
function element(name: string, data: Data, head = ''): string {
  let attributes = head;
  let children = '';
  for (const k in data) {
    const v = data[k];
    if (v === undefined || v === null) continue;
    if (Array.isArray(v)) {
      if (v.length === 0) continue;
      const item = ITEM_ELEMENTS[k] ?? 'Item';
      let inner = '';
      for (const x of v) inner += element(item, x as Data);
      children += `<${capital(k)}>${inner}</${capital(k)}>`;
    } else if (typeof v === 'object') {
      children += element(capital(k), v as Data);
    } else if (head === '' || !ID_FIELDS.has(k)) {
      attributes += ` ${k}="${escape(v)}"`;
    }
  }
  return children === '' ? `<${name}${attributes}/>` : `<${name}${attributes}>${children}</${name}>`;
}

/** Fields the root carries from the message; a payload field of the same name is not repeated. */
const ID_FIELDS = new Set(['date', 'trackId', 'sport', 'raceNr', 'startNr']);

/** The document: its root is the channel, with date, trackId, sport, raceNr and startNr first. */
export function legacyXml(m: DayMessage): string {
  let head = ` date="${m.date}" trackId="${m.trackId}" sport="${m.sport}"`;
  if (m.raceNr !== undefined) head += ` raceNr="${m.raceNr}"`;
  if (m.startNr !== undefined) head += ` startNr="${m.startNr}"`;
  return `<?xml version="1.0" encoding="UTF-8"?>${element(m.channel, m.payload, head)}`;
}

/** The key a legacy injection carries: channel, date, track, race and start. */
export function payloadKeyOf(m: DayMessage): string {
  let key = `${m.channel}-${m.date}-${m.trackId}`;
  if (m.raceNr !== undefined) key += `-${m.raceNr}`;
  if (m.startNr !== undefined) key += `-${m.startNr}`;
  return key;
}
