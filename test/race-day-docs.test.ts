import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { assertWellFormedXml } from '@racedata/legacy-sim';
import { DAY_CHANNELS, PAYLOAD_SCHEMAS, validateSchema } from '@racedata/race-day';
import { PAGE, SCHEMA_DIR, schemaFiles, withGeneratedParts } from '../scripts/race-day-docs';

const page = readFileSync(PAGE, 'utf8');

describe('docs/race-days.md and the shipped schemas', () => {
  it('hold what the race-day package generates (npm run race-day:docs)', () => {
    expect(page).toBe(withGeneratedParts(page));
    const files = schemaFiles();
    expect(readdirSync(SCHEMA_DIR).sort()).toEqual([...files.keys()].sort());
    for (const [name, text] of files) expect(readFileSync(path.join(SCHEMA_DIR, name), 'utf8')).toBe(text);
  });

  it('show only JSON examples that hold against their channel’s schema, and well-formed XML of every channel', () => {
    const json = [...page.matchAll(/```json\n(.*)\n```/g)].map(
      (m) => JSON.parse(m[1]!) as Record<string, unknown>,
    );
    const events = json.filter((e) => typeof e.channel === 'string');
    expect(events.length).toBeGreaterThan(20);
    for (const e of events) {
      expect(
        validateSchema(PAYLOAD_SCHEMAS[e.channel as string]!, e.payload, `${e.channel as string} $.payload`),
      ).toEqual([]);
    }
    const xml = [...page.matchAll(/```xml\n(.*)\n```/g)].map((m) => m[1]!);
    for (const doc of xml) assertWellFormedXml(doc);
    const roots = new Set(xml.map((doc) => /<([A-Za-z]\w*)[ >/]/.exec(doc.replace(/^<\?xml[^>]*>/, ''))![1]));
    expect([...roots].sort()).toEqual([...DAY_CHANNELS].sort());
  });

  it('show the steering example as the file the examples project runs', () => {
    const marked = [...page.matchAll(/<!-- example: (\S+) -->\n```ts\n([\s\S]*?)\n```/g)];
    expect(marked.map((m) => m[1])).toEqual(['examples/jest/race-day.test.ts']);
    const file = readFileSync(path.join(__dirname, '..', marked[0]![1]!), 'utf8');
    expect(marked[0]![2]).toBe(file.replace(/\n$/, ''));
  });
});
