import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { assertWellFormedXml } from '@racedata/legacy-sim';
import { createAnonymiser, type Anonymiser } from '@racedata/recorder';
import { decodeXml, jsonNames, NAME_FIELDS, withJsonNames, withXmlNames, xmlNames } from './name-walk';

// The whole bundled day, both simulators' files, through one anonymiser as the recorder uses it.
const ROOT = path.resolve(__dirname, '..', '..', '..', 'recordings');

function lines(kind: 'json' | 'legacy'): Array<{ file: string; text: string }> {
  const dir = path.join(ROOT, kind);
  return readdirSync(dir)
    .filter((name) => name.endsWith('.jsonl'))
    .sort()
    .flatMap((file) =>
      readFileSync(path.join(dir, file), 'utf8')
        .split('\n')
        .filter((text) => text.trim() !== '')
        .map((text) => ({ file, text })),
    );
}

interface Run {
  json: string[];
  legacy: string[];
  anonymiser: Anonymiser;
}

function anonymiseDay(salt: string): Run {
  const anonymiser = createAnonymiser({ salt, anonymiseNames: true });
  const json = lines('json').map(({ text }) => {
    const { at, delivery, ...message } = JSON.parse(text) as Record<string, unknown>;
    const out = anonymiser.jsonLine({ at: at as string, delivery: delivery as 'durable', message });
    return JSON.stringify({ at: out.at, delivery: out.delivery, ...out.message });
  });
  const legacy = lines('legacy').map(({ text }) => JSON.stringify(anonymiser.legacyLine(JSON.parse(text))));
  return { json, legacy, anonymiser };
}

const inputJson = lines('json').map((l) => l.text);
const inputLegacy = lines('legacy').map((l) => l.text);
const run = anonymiseDay('bundled-day');

const originals = new Set(inputJson.flatMap((text) => jsonNames(JSON.parse(text))));

test('the day has names to replace (the test would prove nothing otherwise)', () => {
  expect(originals.size).toBeGreaterThan(150);
  expect(inputLegacy).toHaveLength(inputJson.length);
});

test('no original name is left anywhere in the output, in any file', () => {
  const output = [...run.json, ...run.legacy].join('\n');
  const left = [...originals].filter((name) => output.includes(name));
  expect(left).toEqual([]);
});

test('every JSON line is byte-identical to its input once its names are put back', () => {
  run.json.forEach((text, i) => {
    const before = JSON.parse(inputJson[i]!) as unknown;
    expect(JSON.stringify(withJsonNames(JSON.parse(text), jsonNames(before)))).toBe(inputJson[i]);
  });
});

test('every legacy line is well-formed XML and byte-identical to its input once its names are put back', () => {
  run.legacy.forEach((text, i) => {
    const input = JSON.parse(inputLegacy[i]!) as { xml: string };
    const out = JSON.parse(text) as { xml: string };
    assertWellFormedXml(out.xml);
    const restored = { ...out, xml: withXmlNames(out.xml, xmlNames(input.xml)) };
    expect(JSON.stringify(restored)).toBe(inputLegacy[i]);
  });
});

test("one name, one pseudonym: the same in both simulators' files, and no two names share one", () => {
  const chosen = new Map<string, string>();
  const record = (original: string, pseudonym: string) => {
    expect(chosen.get(original) ?? pseudonym).toBe(pseudonym);
    chosen.set(original, pseudonym);
  };
  // The two folders hold the same messages line for line (recordings/README.md).
  run.json.forEach((text, i) => {
    const before = jsonNames(JSON.parse(inputJson[i]!));
    jsonNames(JSON.parse(text)).forEach((p, j) => record(before[j]!, p));
  });
  run.legacy.forEach((text, i) => {
    const before = xmlNames((JSON.parse(inputLegacy[i]!) as { xml: string }).xml).map(decodeXml);
    xmlNames((JSON.parse(text) as { xml: string }).xml)
      .map(decodeXml)
      .forEach((p, j) => record(before[j]!, p));
  });
  expect(chosen.size).toBe(originals.size);
  expect(new Set(chosen.values()).size).toBe(chosen.size);
});

test('the same salt gives the same bytes in another run; another salt other names', () => {
  const again = anonymiseDay('bundled-day');
  expect(again.json).toEqual(run.json);
  expect(again.legacy).toEqual(run.legacy);
  const other = anonymiseDay('another-salt');
  const differing = other.json.filter((text, i) => text !== run.json[i]).length;
  const withNames = inputJson.filter((text) => jsonNames(JSON.parse(text)).length > 0).length;
  expect(differing).toBe(withNames);
});

test('the summary counts every replaced value by field, and every message', () => {
  const { replaced, redacted, messages } = run.anonymiser.summary();
  const counted = Object.values(replaced).reduce((a, b) => a + b, 0);
  const expected =
    inputJson.reduce((n, text) => n + jsonNames(JSON.parse(text)).length, 0) +
    inputLegacy.reduce((n, text) => n + xmlNames((JSON.parse(text) as { xml: string }).xml).length, 0);
  expect(counted).toBe(expected);
  const present = NAME_FIELDS.filter((field) => inputJson.some((text) => text.includes(`"${field}":`)));
  expect(present).toEqual(
    expect.arrayContaining(['driver', 'horse', 'jockey', 'trainer', 'owner', 'breeder']),
  );
  expect(Object.keys(replaced).sort()).toEqual([...present].sort());
  expect(redacted).toEqual({});
  expect(messages).toBe(inputJson.length + inputLegacy.length);
});
