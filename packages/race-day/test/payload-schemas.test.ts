import fc from 'fast-check';
import Ajv2020 from 'ajv/dist/2020';
import { JSON_DAY_CHANNELS, jsonChannelOf, PAYLOAD_SCHEMAS, validateSchema } from '@racedata/race-day';
import { dayArb, dayOf, RUNS } from './day-fixtures';

const ajv = new Ajv2020({ strict: true, allErrors: true });
const compiled = Object.fromEntries(
  Object.entries(PAYLOAD_SCHEMAS).map(([name, schema]) => [name, ajv.compile(schema)]),
);

describe('payload schemas', () => {
  it('exist for every JSON channel a day uses and are valid JSON Schema 2020-12', () => {
    expect(Object.keys(PAYLOAD_SCHEMAS).sort()).toEqual([...JSON_DAY_CHANNELS].sort());
    for (const schema of Object.values(PAYLOAD_SCHEMAS)) {
      expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
      expect(ajv.validateSchema(schema)).toBe(true);
    }
  });

  it('hold every payload of any generated day (ajv and the built-in validator)', () => {
    fc.assert(
      fc.property(dayArb, ({ date, seed, edge }) => {
        const { timeline } = dayOf(date, seed, edge);
        for (const m of timeline) {
          const channel = jsonChannelOf(m);
          const validate = compiled[channel]!;
          if (!validate(m.payload)) throw new Error(`${channel}: ${ajv.errorsText(validate.errors)}`);
          const own = validateSchema(PAYLOAD_SCHEMAS[channel]!, m.payload);
          if (own.length > 0) throw new Error(`${channel}: ${JSON.stringify(own)}`);
        }
      }),
      RUNS,
    );
  });

  it('the built-in validator agrees with ajv on broken payloads, and names the path', () => {
    const { timeline } = dayOf('2026-05-13', 4, 'all');
    const samples = new Map<string, Record<string, unknown>>();
    for (const m of timeline)
      if (!samples.has(jsonChannelOf(m))) samples.set(jsonChannelOf(m), m.payload as Record<string, unknown>);
    const channels = [...samples.keys()];
    /** A random edit somewhere in the payload: drop, retype, add or push out of range. */
    const mutate = (value: unknown, path: number[], kind: number): unknown => {
      if (typeof value !== 'object' || value === null) {
        return [undefined, 'text', -5, 1.5, null, true, 1e9][kind % 7];
      }
      const keys = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value);
      if (keys.length === 0 || path.length === 0) {
        return Array.isArray(value) ? [...value, { extra: 1 }] : { ...value, extraField: 1 };
      }
      const key = keys[path[0]! % keys.length]!;
      const copy = (Array.isArray(value) ? [...value] : { ...value }) as Record<string | number, unknown>;
      const next = mutate((value as Record<string | number, unknown>)[key], path.slice(1), kind);
      if (next === undefined && !Array.isArray(value)) delete copy[key];
      else copy[key] = next;
      return copy;
    };
    fc.assert(
      fc.property(
        fc.constantFrom(...channels),
        fc.array(fc.nat(40), { minLength: 0, maxLength: 4 }),
        fc.nat(6),
        (channel, path, kind) => {
          const broken = mutate(samples.get(channel), path, kind);
          const ajvSays = compiled[channel]!(broken);
          const own = validateSchema(PAYLOAD_SCHEMAS[channel]!, broken, '$.payload');
          expect(own.length === 0).toBe(ajvSays);
          for (const p of own) expect(p.path).toMatch(/^\$\.payload(\.|\[|$)/);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('names the path of a problem', () => {
    const message = dayOf('2026-05-13', 4, 'none').timeline.find((m) => m.channel === 'Result')!;
    const payload = { ...(message.payload as Record<string, unknown>) };
    const placings = [...(payload.placings as Array<Record<string, unknown>>)];
    placings[1] = { ...placings[1], place: 'two' };
    const problems = validateSchema(
      PAYLOAD_SCHEMAS[jsonChannelOf(message)]!,
      { ...payload, placings, raceNo: 3 },
      '$.payload',
    );
    expect(problems).toEqual(
      expect.arrayContaining([
        { path: '$.payload.placings[1].place', message: 'must be integer, not string' },
        { path: '$.payload.raceNo', message: 'is not a field of this payload' },
      ]),
    );
  });
});
