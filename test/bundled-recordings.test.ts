import { promises as fs } from 'node:fs';
import path from 'node:path';
import { loadRecordings, type RecordedJsonMessage, type RecordedLegacyMessage } from '@racedata/core';
import { JSON_CHANNELS, jsonChannelCatalog } from '@racedata/json-sim';
import { LEGACY_CHANNELS, legacyChannelCatalog } from '@racedata/legacy-sim';
import { generateRecordings } from '../scripts/generate-recordings';

const ROOT = path.resolve(__dirname, '..', 'recordings');

let legacy: RecordedLegacyMessage[];
let json: RecordedJsonMessage[];

beforeAll(async () => {
  const legacyLoaded = await loadRecordings(ROOT, 'legacy', { catalog: legacyChannelCatalog() });
  const jsonLoaded = await loadRecordings(ROOT, 'json', { catalog: jsonChannelCatalog() });
  expect(legacyLoaded.problems).toEqual([]);
  expect(jsonLoaded.problems).toEqual([]);
  legacy = legacyLoaded.messages;
  json = jsonLoaded.messages;
});

type Payload = Record<string, unknown>;
const ofChannel = (channel: string) =>
  json.filter((m) => m.message.channel === channel).map((m) => m.message);

describe('replay: the bundled recordings', () => {
  it('are exactly what the seeded generator writes', async () => {
    const generated = generateRecordings();
    const again = generateRecordings();
    for (const [rel, text] of generated) {
      expect(again.get(rel)).toBe(text);
      expect(await fs.readFile(path.join(ROOT, rel), 'utf8')).toBe(text);
    }
    // They ship in the package and the images: the countdowns are cut to their last minutes for it.
    const sizes = [...generated.values()].reduce((sum, text) => sum + Buffer.byteLength(text), 0);
    expect(sizes).toBeLessThan(4 * 1024 * 1024);
  });

  it('cover every channel of both catalogs', () => {
    expect(new Set(legacy.map((m) => m.channel))).toEqual(
      new Set([...LEGACY_CHANNELS.durable, ...LEGACY_CHANNELS.transient]),
    );
    expect(new Set(json.map((m) => m.message.channel))).toEqual(
      new Set([...JSON_CHANNELS.durable, ...JSON_CHANNELS.transient]),
    );
  });

  it('tell the same day in both formats', () => {
    expect(legacy.map((m) => m.at)).toEqual(json.map((m) => m.at));
    // Collected rather than asserted one by one: thousands of expect() calls take seconds.
    const mismatches = legacy.filter((m, i) => {
      const { delivery, message: event } = json[i]!;
      const raceNr = event.raceNr === undefined ? '' : ` raceNr="${event.raceNr}"`;
      return (
        event.channel.replace(/(Trot|Gallop)$/, '') !== m.channel ||
        m.delivery !== delivery ||
        !m.xml.includes(`<${m.channel} date="${event.date}" trackId="${event.trackId}"`) ||
        !m.xml.includes(raceNr)
      );
    });
    expect(mismatches).toEqual([]);
  });

  it('keep horses, start numbers and scratchings consistent through the channels', () => {
    const starters = new Map<string, string>();
    for (const list of [...ofChannel('StartListTrot'), ...ofChannel('StartListGallop')]) {
      for (const s of (list.payload as { starters: Array<{ startNr: number; horse: string }> }).starters) {
        starters.set(`${list.trackId}/${list.raceNr}/${s.startNr}`, s.horse);
      }
    }
    const scratched = new Set<string>();
    for (const s of [...ofChannel('ScratchingsTrot'), ...ofChannel('ScratchingsGallop')]) {
      const key = `${s.trackId}/${s.raceNr}/${s.startNr}`;
      expect(starters.get(key)).toBe((s.payload as Payload).horse);
      scratched.add(key);
    }
    expect(scratched.size).toBeGreaterThanOrEqual(4);
    const named = [...ofChannel('ResultTrot'), ...ofChannel('ResultGallop')].flatMap((r) =>
      (r.payload.placings as Array<{ startNr: number; horse: string }>).map((p) => ({ r, p })),
    );
    const last500 = [...ofChannel('Last500MetersTrot'), ...ofChannel('Last500MetersGallop')].flatMap((r) =>
      (r.payload.positions as Array<{ startNr: number; horse: string }>).map((p) => ({ r, p })),
    );
    for (const { r, p } of [...named, ...last500]) {
      const key = `${r.trackId}/${r.raceNr}/${p.startNr}`;
      expect(starters.get(key)).toBe(p.horse);
      expect(scratched.has(key)).toBe(false);
    }
    for (const dq of ofChannel('PrelDisqualifiedHorsesTrot')) {
      expect(starters.get(`${dq.trackId}/${dq.raceNr}/${dq.startNr}`)).toBe((dq.payload as Payload).horse);
    }
  });

  it('time the day like a real meeting', () => {
    const races = [...ofChannel('RaceDayTrot'), ...ofChannel('RaceDayGallop')].filter(
      (r) => r.payload.revision === 1,
    );
    expect(races.map((r) => r.payload.sport).sort()).toEqual(['gallop', 'trot']);
    for (const day of races) {
      const trot = day.payload.sport === 'trot';
      const starts = (day.payload.races as Array<{ raceNr: number; startTime: string }>).map((r) => ({
        raceNr: r.raceNr,
        scheduled: Date.parse(r.startTime),
      }));
      expect(starts.length).toBeGreaterThanOrEqual(trot ? 7 : 6);
      expect(starts.length).toBeLessThanOrEqual(trot ? 11 : 9);
      starts.slice(1).forEach((r, i) => {
        const gapMin = (r.scheduled - starts[i]!.scheduled) / 60_000;
        expect(gapMin).toBeGreaterThanOrEqual(20);
        expect(gapMin).toBeLessThanOrEqual(trot ? 25 : 30);
      });
      for (const { raceNr, scheduled } of starts) {
        const mine = json.filter((m) => m.message.trackId === day.trackId && m.message.raceNr === raceNr);
        const result = mine.find((m) => m.message.channel.startsWith('Result'))!;
        // The countdown falls to 0 at the actual start, 0-6.5 minutes after the scheduled one.
        const start = Date.parse(result.message.payload.startTime as string);
        expect((start - scheduled) / 1000).toBeGreaterThanOrEqual(0);
        expect((start - scheduled) / 1000).toBeLessThanOrEqual(390);
        const countdown = mine.filter((m) => m.message.channel.startsWith('TimeToStart'));
        expect(countdown).toHaveLength(181);
        expect(countdown.at(-1)!.at).toBe(start);
        expect(countdown.at(-1)!.message.payload.secondsToStart).toBe(0);
        expect((result.at - start) / 60_000).toBeGreaterThan(2);
        expect((result.at - start) / 60_000).toBeLessThan(20);
        const programme = json.find((m) => m.message === day)!;
        expect(programme.at).toBeLessThan(scheduled - 3 * 3_600_000);
      }
    }
  });
});
