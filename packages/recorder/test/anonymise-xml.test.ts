import fc from 'fast-check';
import { assertWellFormedXml } from '@racedata/legacy-sim';
import { createAnonymiser, type RecordingLineLegacy } from '@racedata/recorder';
import { decodeXml, escapeXml, jsonNames, withXmlNames, xmlNames } from './name-walk';

const legacy = (xml: string): RecordingLineLegacy => ({
  at: '2024-05-11T12:00:00.000Z',
  delivery: 'durable',
  channel: 'StartList',
  payloadKey: 'StartList-2024-05-11-901-1',
  xml,
});

const anonymiser = (salt = 'pepper') => createAnonymiser({ salt, anonymiseNames: true });

const textArb = fc.string({ unit: fc.constantFrom(...'abcåäöÅ É&<>"\'-.;#'.split('')), maxLength: 20 });
const nameArb = textArb.filter((s) => s.trim() !== '');
const quoteArb = fc.constantFrom('"', "'");

interface Starter {
  startNr: number;
  horse: string;
  driver: string;
  note: string;
  quote: string;
}

const starterArb = fc.record({
  startNr: fc.nat(20),
  horse: nameArb,
  driver: nameArb,
  note: textArb,
  quote: quoteArb,
});

// Documents in the shape of the legacy recordings, with the quoting, spacing, comments and CDATA
// a real feed may use, so byte stability is tried on more than the generator's own output.
function documentOf(starters: Starter[], comment: boolean): string {
  const items = starters
    .map((s) => {
      const q = s.quote;
      return `<Starter startNr=${q}${s.startNr}${q}  horse = ${q}${escapeXml(s.horse, q)}${q} note=${q}${escapeXml(s.note, q)}${q}><Driver>${escapeXml(s.driver, '"')}</Driver></Starter>`;
    })
    .join(comment ? '<!-- horse: Not A Name -->\n' : '');
  return `<?xml version="1.0" encoding="UTF-8"?><StartList date="2024-05-11" trackId="901" name="Vårsprinten"><Starters>${items}</Starters></StartList>`;
}

describe('legacy lines', () => {
  test('the output is well-formed, names changed, and every other byte as it was', () => {
    fc.assert(
      fc.property(fc.array(starterArb, { maxLength: 5 }), fc.boolean(), (starters, comment) => {
        const xml = documentOf(starters, comment);
        const out = anonymiser().legacyLine(legacy(xml));
        assertWellFormedXml(out.xml);
        const before = xmlNames(xml);
        const after = xmlNames(out.xml);
        expect(after).toHaveLength(starters.length);
        after.forEach((raw, i) => expect(decodeXml(raw)).not.toBe(starters[i]!.horse));
        // Drivers are element text here: put both kinds of originals back and compare the bytes.
        const driverTexts = [...out.xml.matchAll(/<Driver>(.*?)<\/Driver>/g)].map((m) => m[1]!);
        driverTexts.forEach((raw, i) => expect(decodeXml(raw)).not.toBe(starters[i]!.driver.trim()));
        const drivers = starters.map((s) => `<Driver>${escapeXml(s.driver, '"')}</Driver>`);
        const restored = withXmlNames(out.xml, before).replace(/<Driver>.*?<\/Driver>/g, () =>
          drivers.shift()!,
        );
        expect(restored).toBe(xml);
        expect({ ...out, xml: '' }).toEqual({ ...legacy(xml), xml: '' });
      }),
      { numRuns: 200 },
    );
  });

  test('a name gets the same pseudonym in the JSON and the legacy form, whichever comes first', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }),
        fc.uniqueArray(nameArb, { minLength: 1, maxLength: 6 }),
        (salt, horses) => {
          const xml = `<Result><Placings>${horses.map((h) => `<Placing horse="${escapeXml(h)}"/>`).join('')}</Placings></Result>`;
          const json = {
            at: '2024-05-11T12:00:00Z',
            delivery: 'durable' as const,
            message: { payload: { placings: horses.map((horse) => ({ horse })) } },
          };
          const jsonFirst = anonymiser(salt);
          const fromJson = jsonNames(jsonFirst.jsonLine(json).message);
          const fromXml = xmlNames(jsonFirst.legacyLine(legacy(xml)).xml).map(decodeXml);
          expect(fromXml).toEqual(fromJson);
          const xmlFirst = anonymiser(salt);
          expect(xmlNames(xmlFirst.legacyLine(legacy(xml)).xml).map(decodeXml)).toEqual(fromJson);
        },
      ),
      { numRuns: 150 },
    );
  });

  test('attributes and text inside a name element, and CDATA, are names; the root and tracks are not', () => {
    const xml =
      '<Result horse="Eldpilen" name="Ekbacka Stora Pris" track="Ekbacka"><Trainer id="7" name="Anna Ek"><Name>Anna Ek</Name></Trainer>' +
      '<Owner><![CDATA[Stall Ek & Son]]></Owner><Jockey> Nils Berg </Jockey></Result>';
    const a = anonymiser();
    const out = a.legacyLine(legacy(xml)).xml;
    assertWellFormedXml(out);
    expect(out).toMatch(
      /^<Result horse="[^"]+" name="Ekbacka Stora Pris" track="Ekbacka"><Trainer id="7" name="([^"]+)"><Name>\1<\/Name><\/Trainer><Owner><!\[CDATA\[[^\]]+\]\]><\/Owner><Jockey> [^<]+ <\/Jockey><\/Result>$/,
    );
    for (const original of ['Eldpilen', 'Anna Ek', 'Stall Ek', 'Nils Berg'])
      expect(out).not.toContain(original);
    expect(a.summary().replaced).toEqual({ horse: 1, name: 1, Name: 1, Owner: 1, Jockey: 1 });
  });

  test('XML it cannot walk with certainty is refused with ANONYMISE_XML_MALFORMED, and counts nothing', () => {
    const a = anonymiser();
    const bad = [
      '<StartList horse="Eldpilen">',
      '<A><B></A></B>',
      '<A horse="x"/><B/>',
      '<!DOCTYPE a [<!ENTITY n "Eldpilen">]><a horse="&n;"/>',
      '<A horse="Eld&pilen"/>',
      '<A horse=Eldpilen/>',
      '<A horse="Eldpilen"',
      'text<A/>',
      '<A><![CDATA[x</A>',
    ];
    for (const xml of bad) {
      expect(() => a.legacyLine(legacy(xml))).toThrow(
        expect.objectContaining({ code: 'ANONYMISE_XML_MALFORMED' }),
      );
    }
    expect(a.summary()).toEqual({ replaced: {}, redacted: {}, messages: 0 });
  });
});

describe('--redact on legacy lines', () => {
  const xml =
    '<Result date="2024-05-11" trackId="901"><Placings><Placing startNr="1" horse="Eldpilen" odds="4.1"><Comment>wide</Comment></Placing>' +
    '<Placing startNr="2" horse="Solvågen" odds="9.9"/></Placings><Odds>x</Odds></Result>';

  test('a bare name drops attributes and elements (with their content) of that name everywhere', () => {
    const a = createAnonymiser({ salt: 's', anonymiseNames: false, redact: ['odds', 'Comment', 'trackId'] });
    const out = a.legacyLine(legacy(xml)).xml;
    expect(out).toBe(
      '<Result date="2024-05-11"><Placings><Placing startNr="1" horse="Eldpilen"></Placing>' +
        '<Placing startNr="2" horse="Solvågen"/></Placings><Odds>x</Odds></Result>',
    );
    expect(a.summary().redacted).toEqual({ odds: 2, Comment: 1, trackId: 1 });
  });

  test('payload.x.y reaches the same field as in the JSON form; an exact element path works too', () => {
    const a = createAnonymiser({
      salt: 's',
      anonymiseNames: false,
      redact: ['payload.placings.odds', 'Result.Odds'],
    });
    const out = a.legacyLine(legacy(xml)).xml;
    expect(out).toBe(
      '<Result date="2024-05-11" trackId="901"><Placings><Placing startNr="1" horse="Eldpilen"><Comment>wide</Comment></Placing>' +
        '<Placing startNr="2" horse="Solvågen"/></Placings></Result>',
    );
    assertWellFormedXml(out);
  });

  test('the root element is never dropped', () => {
    const a = createAnonymiser({ salt: 's', anonymiseNames: false, redact: ['Result'] });
    expect(a.legacyLine(legacy(xml)).xml).toBe(xml);
  });
});
