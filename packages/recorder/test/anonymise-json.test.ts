import fc from 'fast-check';
import { createAnonymiser, type AnonymiseOptions, type RecordingLineJson } from '@racedata/recorder';
import { jsonNames, withJsonNames } from './name-walk';

const names = (salt: string, extra: Partial<AnonymiseOptions> = {}) =>
  createAnonymiser({ salt, anonymiseNames: true, ...extra });

const line = (payload: Record<string, unknown>, extra: Record<string, unknown> = {}): RecordingLineJson => ({
  at: '2024-05-11T12:00:00.000Z',
  delivery: 'durable',
  message: { channel: 'StartListTrot', date: '2024-05-11', trackId: 901, raceNr: 1, ...extra, payload },
});

// A realistic name: letters (Swedish too), spaces, apostrophes and the characters XML must escape.
const nameArb = fc
  .string({
    unit: fc.constantFrom(...'abcdefghijklmnoprstuvåäöÅÄÖ ÉéüB&<>"\'-.'.split('')),
    minLength: 1,
    maxLength: 24,
  })
  .filter((s) => s.trim() !== '');

const starterArb = fc.record({
  startNr: fc.integer({ min: 1, max: 15 }),
  horse: nameArb,
  driver: nameArb,
  trainer: nameArb,
  odds: fc.double({ min: 1, max: 999, noNaN: true }),
  note: fc.string(),
});

// Any JSON beside the names, so "everything else keeps its bytes" is tried on shapes we did not think of.
const otherArb = fc.dictionary(
  fc
    .string({ minLength: 1, maxLength: 8 })
    .filter((k) => !/horse|driver|jockey|trainer|owner|breeder|name/i.test(k)),
  fc.jsonValue({ maxDepth: 3 }),
  { maxKeys: 5 },
);

const payloadArb = fc.record({
  track: nameArb,
  starters: fc.array(starterArb, { maxLength: 6 }),
  extra: otherArb,
});

describe('JSON lines', () => {
  test('the same salt gives the same output in a fresh anonymiser; another salt gives other names', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), payloadArb, (salt, payload) => {
        const a = names(salt).jsonLine(line(payload));
        const b = names(salt).jsonLine(line(payload));
        expect(JSON.stringify(b)).toBe(JSON.stringify(a));
        const other = names(`${salt}!`).jsonLine(line(payload));
        const originals = jsonNames(payload);
        if (new Set(originals).size >= 6) {
          // Two salts choosing the same 6 pseudonyms from ~30,000 by chance: practically never.
          expect(jsonNames(other.message)).not.toEqual(jsonNames(a.message));
        }
      }),
      { numRuns: 150 },
    );
  });

  test('every name is replaced, and putting the originals back gives the input byte for byte', () => {
    fc.assert(
      fc.property(payloadArb, (payload) => {
        const input = line(payload);
        const output = names('pepper').jsonLine(input);
        const before = jsonNames(input.message);
        const after = jsonNames(output.message);
        expect(after).toHaveLength(before.length);
        after.forEach((pseudonym, i) =>
          expect(pseudonym.toLowerCase()).not.toBe(before[i]!.trim().toLowerCase()),
        );
        expect(JSON.stringify(withJsonNames(output.message, before))).toBe(JSON.stringify(input.message));
        expect(output.at).toBe(input.at);
        expect(output.delivery).toBe(input.delivery);
      }),
      { numRuns: 200 },
    );
  });

  test('one name keeps one pseudonym in every field and message; two names never share one', () => {
    const anonymiser = names('s');
    const a = anonymiser.jsonLine(
      line({ starters: [{ horse: 'Bravo Nova', driver: 'Anna Ek', trainer: 'Anna Ek' }] }),
    );
    const b = anonymiser.jsonLine(
      line({ placings: [{ horse: 'bravo  nova', trainer: 'Anna Ek', owner: 'Nils Berg' }] }),
    );
    const [horse, driver, trainer] = jsonNames(a.message);
    const [horse2, trainer2, owner] = jsonNames(b.message);
    expect(driver).toBe(trainer);
    expect(trainer2).toBe(trainer);
    // Case and spacing do not make a new name.
    expect(horse2).toBe(horse);
    expect(owner).not.toBe(trainer);
  });

  test('plural, ...Name and user-listed fields are names; ids and numbers under them are kept', () => {
    const anonymiser = names('s', { extraNameFields: ['rider'] });
    const out = anonymiser.jsonLine(
      line({
        horses: ['Eldpilen', 'Solvågen'],
        driverName: 'Johan Lindvall',
        rider: 'Sara Bergholm',
        trainer: { id: 'T-77', licence: 4411, name: 'Karin Åsmark', firstName: 'Karin' },
        owners: [{ ownerId: 12, name: 'Stall Ek AB' }],
        horseId: 'H-1',
        breederCount: 3,
        starters: [{ horse: 42 }],
      }),
    ).message.payload as Record<string, unknown>;
    expect(out.horses).not.toEqual(['Eldpilen', 'Solvågen']);
    expect(out.driverName).not.toBe('Johan Lindvall');
    expect(out.rider).not.toBe('Sara Bergholm');
    const trainer = out.trainer as Record<string, unknown>;
    expect(trainer).toMatchObject({ id: 'T-77', licence: 4411 });
    expect(trainer.name).not.toBe('Karin Åsmark');
    expect(trainer.firstName).not.toBe('Karin');
    expect((out.owners as Array<Record<string, unknown>>)[0]).toMatchObject({ ownerId: 12 });
    expect((out.owners as Array<Record<string, unknown>>)[0]!.name).not.toBe('Stall Ek AB');
    expect(out.horseId).toBe('H-1');
    expect(out.breederCount).toBe(3);
    expect(out.starters).toEqual([{ horse: 42 }]);
    expect(anonymiser.summary()).toEqual({
      replaced: { horses: 2, driverName: 1, rider: 1, name: 2, firstName: 1 },
      redacted: {},
      messages: 1,
    });
  });

  test('tracks and race names are public and stay; a country suffix and upper case are kept', () => {
    const out = names('s').jsonLine(
      line({
        track: 'Tallmyra',
        name: 'Tallmyra Stora Pris',
        horse: 'READY CASH (FR)',
        winner: { horse: 'Ready Cash' },
      }),
    ).message.payload as Record<string, unknown>;
    expect(out.track).toBe('Tallmyra');
    expect(out.name).toBe('Tallmyra Stora Pris');
    const upper = out.horse as string;
    expect(upper).toMatch(/^[^a-zåäö]+ \(FR\)$/);
    expect(upper.replace(' (FR)', '')).toBe(
      ((out.winner as Record<string, string>).horse ?? '').toUpperCase(),
    );
  });

  test('without --anonymise the line is passed on unchanged', () => {
    const input = line({ starters: [{ horse: 'Eldpilen', driver: 'Anna Ek' }] });
    const out = createAnonymiser({ salt: '', anonymiseNames: false }).jsonLine(input);
    expect(JSON.stringify(out)).toBe(JSON.stringify(input));
  });

  test('an empty salt is refused when names are anonymised', () => {
    expect(() => createAnonymiser({ salt: '', anonymiseNames: true })).toThrow(
      expect.objectContaining({ code: 'ANONYMISE_OPTIONS_INVALID' }),
    );
  });

  test("a __proto__ key is kept as data and does not change the copy's prototype", () => {
    const payload = JSON.parse('{"__proto__":{"horse":"Eldpilen"},"x":1}') as Record<string, unknown>;
    const out = names('s').jsonLine(line(payload));
    const text = JSON.stringify(out.message.payload);
    expect(text).toMatch(/^\{"__proto__":\{"horse":"[^"]+"\},"x":1\}$/);
    expect(text).not.toContain('Eldpilen');
  });
});

describe('--redact on JSON lines', () => {
  const payload = {
    track: 'Tallmyra',
    odds: 2.5,
    starters: [
      { startNr: 1, horse: 'Eldpilen', odds: 4.1, trainer: { name: 'Anna Ek', phone: '070' } },
      { startNr: 2, horse: 'Solvågen', odds: 9.9, trainer: { name: 'Nils Berg', phone: '071' } },
    ],
  };

  test('a bare name drops the field everywhere, a dotted path only where it points (through arrays)', () => {
    const bare = createAnonymiser({ salt: 's', anonymiseNames: false, redact: ['odds'] });
    expect(bare.jsonLine(line(payload)).message.payload).toEqual({
      track: 'Tallmyra',
      starters: [
        { startNr: 1, horse: 'Eldpilen', trainer: { name: 'Anna Ek', phone: '070' } },
        { startNr: 2, horse: 'Solvågen', trainer: { name: 'Nils Berg', phone: '071' } },
      ],
    });
    expect(bare.summary().redacted).toEqual({ odds: 3 });
    const path = createAnonymiser({
      salt: 's',
      anonymiseNames: false,
      redact: ['payload.starters.odds', 'payload.starters.trainer.phone'],
    });
    const out = path.jsonLine(line(payload)).message.payload as typeof payload;
    expect(out.odds).toBe(2.5);
    expect(out.starters.map((s) => s.odds)).toEqual([undefined, undefined]);
    expect(out.starters.map((s) => s.trainer)).toEqual([{ name: 'Anna Ek' }, { name: 'Nils Berg' }]);
    expect(path.summary().redacted).toEqual({
      'payload.starters.odds': 2,
      'payload.starters.trainer.phone': 2,
    });
  });

  test('the line keeps channel, date and payload, which the loader needs; optional ids can go', () => {
    const anonymiser = createAnonymiser({
      salt: 's',
      anonymiseNames: true,
      redact: ['channel', 'date', 'payload', 'raceNr'],
    });
    const out = anonymiser.jsonLine(line({ date: '2024-05-11', horse: 'Eldpilen', payload: 1 }));
    expect(Object.keys(out.message)).toEqual(['channel', 'date', 'trackId', 'payload']);
    expect(out.message.payload).toEqual({ horse: expect.any(String) });
  });

  test('a redact entry that is no name or path is refused', () => {
    for (const bad of ['', 'a..b', 'payload. x', '.odds']) {
      expect(() => createAnonymiser({ salt: 's', anonymiseNames: false, redact: [bad] })).toThrow(
        expect.objectContaining({ code: 'ANONYMISE_OPTIONS_INVALID' }),
      );
    }
  });
});
