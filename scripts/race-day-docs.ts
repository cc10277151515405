/**
 * Writes what users read of the race-day package that comes from its code: the generated parts
 * of docs/race-days.md (the track table, every edge case with the messages it sends in JSON and
 * legacy XML and what a consumer must do, one legacy XML example per channel; each between two
 * HTML comments, the rest of the page written by hand) and the payload schemas as files,
 * packages/race-day/schemas/<Channel>.schema.json. A test (test/race-day-docs.test.ts) fails
 * when they and this script disagree.
 *
 *   npm run race-day:docs
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  dayTimeline,
  EDGE_CASES,
  generateDay,
  jsonEvent,
  legacyXml,
  parseEdgeCasesOption,
  PAYLOAD_SCHEMAS,
  TRACKS,
  type DayMessage,
} from '@racedata/race-day';
import { CONSUMER_NOTES, EXAMPLE_PICKS } from './race-day-docs-notes';

/** The day the examples come from: every case placed, by a fixed seed. */
export const EXAMPLE_DAY = {
  date: '2026-05-13',
  seed: 4,
  meetings: 'auto' as const,
  edgeCases: parseEdgeCasesOption('all'),
};

type Item = { startNr?: number; place?: number };

/**
 * Lists cut short, so an example shows the shape without a whole field: to the start the case
 * concerns (and any sharing its place) when the list has it, else to the first two items.
 */
function trimmed(value: unknown, focus: number | undefined): unknown {
  if (Array.isArray(value)) {
    const items = value as Item[];
    const hit = items.find((x) => x?.startNr === focus);
    const kept = hit
      ? items.filter((x) => x.startNr === focus || (hit.place !== undefined && x.place === hit.place))
      : items.slice(0, 2);
    return kept.map((x) => trimmed(x, focus));
  }
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, trimmed(v, focus)]));
  }
  return value;
}

const cut = (m: DayMessage, focus?: number): DayMessage => ({
  ...m,
  payload: trimmed(m.payload, focus) as Record<string, unknown>,
});

function block(m: DayMessage, focus?: number): string {
  const json = JSON.stringify(jsonEvent(cut(m, focus)));
  const xml = legacyXml(cut(m, focus)).replace('<?xml version="1.0" encoding="UTF-8"?>', '');
  return ['```json', json, '```', '', '```xml', xml, '```'].join('\n');
}

function tracksTable(): string {
  const rows = TRACKS.map((t) => `| ${t.id} | ${t.name} | ${t.sport} |`);
  return ['| trackId | Track | Sport |', '|---|---|---|', ...rows].join('\n');
}

function edgeCases(): string {
  const plan = generateDay(EXAMPLE_DAY);
  const day = dayTimeline(plan);
  const out: string[] = [];
  for (const def of EDGE_CASES) {
    const placed = plan.edgeCases.find((e) => e.id === def.id)!;
    const where = `${placed.trackId}${placed.raceNr === undefined ? '' : `:${placed.raceNr}`}`;
    out.push(
      `### \`${def.id}\``,
      '',
      `${def.summary[0]!.toUpperCase()}${def.summary.slice(1)}.${def.sport ? ` ${def.sport === 'trot' ? 'Trot' : 'Gallop'} only.` : ''}`,
      '',
    );
    out.push(`**What a consumer must do.** ${CONSUMER_NOTES[def.id]}`, '');
    const picks = EXAMPLE_PICKS[def.id]!(day, placed);
    out.push(`In the example day (\`${def.id}@${where}\`):`, '');
    for (const { m, note } of picks) out.push(...(note ? [note, ''] : []), block(m, placed.startNr), '');
  }
  return out.join('\n').trimEnd();
}

function legacyExamples(): string {
  const day = dayTimeline(generateDay(EXAMPLE_DAY));
  const out: string[] = [];
  const seen = new Set<string>();
  for (const m of day) {
    if (seen.has(m.channel)) continue;
    seen.add(m.channel);
    out.push(
      `**${m.channel}** (\`${jsonEvent(m).channel}\` in JSON):`,
      '',
      '```xml',
      legacyXml(cut(m)),
      '```',
      '',
    );
  }
  return out.join('\n').trimEnd();
}

export function generatedParts(): Record<string, string> {
  return { tracks: tracksTable(), 'edge-cases': edgeCases(), 'legacy-xml': legacyExamples() };
}

/** The page with each generated part put between its markers. */
export function withGeneratedParts(page: string): string {
  let out = page;
  for (const [name, text] of Object.entries(generatedParts())) {
    const start = `<!-- ${name}:start -->`;
    const end = `<!-- ${name}:end -->`;
    const from = out.indexOf(start);
    const to = out.indexOf(end);
    if (from < 0 || to < from) throw new Error(`docs/race-days.md has no ${start} ... ${end}`);
    out = `${out.slice(0, from + start.length)}\n${text}\n${out.slice(to)}`;
  }
  return out;
}

export const PAGE = path.resolve(__dirname, '..', 'docs', 'race-days.md');
export const SCHEMA_DIR = path.resolve(__dirname, '..', 'packages', 'race-day', 'schemas');

/** Each payload schema as the file users get: file name -> contents. */
export function schemaFiles(): Map<string, string> {
  return new Map(
    Object.entries(PAYLOAD_SCHEMAS).map(([channel, schema]) => [
      `${channel}.schema.json`,
      `${JSON.stringify(schema, null, 2)}\n`,
    ]),
  );
}

if (require.main === module) {
  writeFileSync(PAGE, withGeneratedParts(readFileSync(PAGE, 'utf8')));
  mkdirSync(SCHEMA_DIR, { recursive: true });
  for (const name of readdirSync(SCHEMA_DIR)) rmSync(path.join(SCHEMA_DIR, name));
  for (const [name, text] of schemaFiles()) writeFileSync(path.join(SCHEMA_DIR, name), text);
}
