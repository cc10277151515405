import fc from 'fast-check';
import {
  deliveryOf,
  ITEM_ELEMENTS,
  jsonChannelOf,
  jsonRecordingLine,
  legacyRecordingLine,
  generateDay,
  dayTimeline,
} from '@racedata/race-day';
import { dayArb, dayOf } from './day-fixtures';

type Tree = Record<string, unknown>;

const unescape = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
const lower = (s: string) => s[0]!.toLowerCase() + s.slice(1);

/** Reads back the documents the legacy renderer writes: attributes, object children, list wrappers. */
function readXml(xml: string): { root: string; data: Tree } {
  const tags = [
    ...xml.replace(/^<\?xml[^?]*\?>/, '').matchAll(/<(\/?)([A-Za-z]\w*)((?:\s+\w+="[^"]*")*)\s*(\/?)>/g),
  ];
  let i = 0;
  // Wrappers collect their item children under __items.
  const wrapped = (): { name: string; data: Tree } => {
    const [, , name, attrs, selfClosing] = tags[i++]!;
    const data: Tree = {};
    for (const [, k, v] of attrs!.matchAll(/(\w+)="([^"]*)"/g)) data[k!] = unescape(v!);
    if (selfClosing) return { name: name!, data };
    const items: unknown[] = [];
    while (tags[i] && tags[i]![1] !== '/') {
      const kid = wrapped();
      const key = lower(kid.name);
      if (ITEM_ELEMENTS[key]) data[key] = kid.data.__items ?? [];
      else if (Object.values(ITEM_ELEMENTS).includes(kid.name)) items.push(kid.data);
      else data[key] = kid.data;
    }
    i++;
    if (items.length > 0) data.__items = items;
    return { name: name!, data };
  };
  const root = wrapped();
  return { root: root.name, data: root.data };
}

/** JSON with keys sorted at every level, to compare thousands of documents cheaply. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Tree)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The payload as XML can carry it: scalars as text, empty lists left out. */
function asXml(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(asXml);
  if (typeof value === 'object' && value !== null) {
    const out: Tree = {};
    for (const [k, v] of Object.entries(value)) {
      if (v === undefined || (Array.isArray(v) && v.length === 0)) continue;
      out[k] = asXml(v);
    }
    return out;
  }
  return String(value);
}

describe('the legacy and JSON renderings of a day', () => {
  it('hold the same messages at the same times', () => {
    fc.assert(
      fc.property(dayArb, ({ date, seed, edge }) => {
        const { timeline } = dayOf(date, seed, edge);
        // Every message of the day, not a sample: compared field by field after a round trip.
        for (const m of timeline) {
          const json = JSON.parse(jsonRecordingLine(m)) as Tree;
          const legacy = JSON.parse(legacyRecordingLine(m)) as {
            at: string;
            delivery: string;
            channel: string;
            payloadKey: string;
            xml: string;
          };
          if (json.at !== legacy.at || json.delivery !== legacy.delivery || json.delivery !== deliveryOf(m))
            throw new Error('time or delivery');
          if (json.channel !== jsonChannelOf(m) || legacy.channel !== m.channel) throw new Error('channel');
          const { root, data } = readXml(legacy.xml);
          if (root !== m.channel) throw new Error(`root ${root}`);
          const ids = { date: json.date, trackId: String(json.trackId), sport: m.sport };
          const expected = asXml({
            ...(json.payload as Tree),
            ...ids,
            ...(json.raceNr !== undefined && { raceNr: json.raceNr }),
            ...(json.startNr !== undefined && { startNr: json.startNr }),
          });
          if (canonical(data) !== canonical(expected)) {
            throw new Error(`${m.channel} differs:\n${canonical(data)}\n${canonical(expected)}`);
          }
          expect(legacy.payloadKey).toBe(
            [m.channel, json.date, json.trackId, json.raceNr, json.startNr]
              .filter((x) => x !== undefined)
              .join('-'),
          );
        }
      }),
      { numRuns: 3 },
    );
  });

  it('are the same bytes for the same options, and another seed gives another day', () => {
    fc.assert(
      fc.property(dayArb, ({ date, seed, edge }) => {
        const options = { date, seed, meetings: 'auto' as const, edgeCases: { mode: edge as 'default' } };
        const a = dayTimeline(generateDay(options)).map(jsonRecordingLine).join('\n');
        const b = dayTimeline(generateDay(options)).map(jsonRecordingLine).join('\n');
        expect(a === b).toBe(true);
        const c = dayTimeline(generateDay({ ...options, seed: (seed + 1) % 4_294_967_296 }))
          .map(jsonRecordingLine)
          .join('\n');
        expect(a === c).toBe(false);
      }),
      { numRuns: 6 },
    );
  });
});
