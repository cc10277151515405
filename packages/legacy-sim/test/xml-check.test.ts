import { isSimError } from '@racedata/core';
import fc from 'fast-check';
import { assertWellFormedXml, checkWellFormedXml } from '../src/xml/well-formed';
import { utf8Of } from '../src/xml/utf8-units';
import { XmlCheck } from '../src/xml/xml-check';

function codeOf(xml: string): string | undefined {
  try {
    assertWellFormedXml(xml);
    return undefined;
  } catch (err) {
    if (!isSimError(err)) throw err;
    expect(err.status).toBe(400);
    return err.code;
  }
}

describe('assertWellFormedXml', () => {
  it.each([
    '<xml>Hello, world!</xml>',
    '<?xml version="1.0" encoding="UTF-8"?>\n<!-- recorded --><RaceDay id="1"><Horse name="Å &amp; Ö"/></RaceDay>\n',
    '<a>&lt;&gt;&quot;&apos;&#65;&#x41;</a>',
    '<a><![CDATA[<!DOCTYPE x> & stray < chars]]></a>',
    '<a b="x>y"/>',
    '\uFEFF<a/>',
    '\uFEFF<?xml version="1.0"?><a/>',
    '<?xml-stylesheet href="s.xsl"?><a/><!-- after -->\n',
    '<a:b xmlns:a="urn:x" c:d=\'1\'><é·ü/></a:b>',
    '<\u{10000}\u{10001}>\u{1F600}</\u{10000}\u{10001}>',
    '<a>x]]>y<!-- a -- b --></a>',
    '<a b = "1"\n\tc="&lt;&#x10FFFF;"></a >',
    `<a>${'x'.repeat(100_000)}&amp;${'y'.repeat(100_000)}</a>`,
    `<a v="${'v'.repeat(100_000)}&quot;"/>`,
    `<a ${Array.from({ length: 50 }, (_, i) => `n${i}="${i}"`).join(' ')}/>`,
  ])('accepts %j', (xml) => {
    expect(codeOf(xml)).toBeUndefined();
  });

  it.each([
    ['', 'EMPTY_BODY'],
    ['  \n', 'EMPTY_BODY'],
    ['hello', 'INVALID_XML'],
    ['{"json": true}', 'INVALID_XML'],
    ['<a><b></a>', 'INVALID_XML'],
    ['<a>', 'INVALID_XML'],
    ['<a b=1/>', 'INVALID_XML'],
    ['<a/><b/>', 'INVALID_XML'],
    ['<a/>tail', 'INVALID_XML'],
    ['<a>&foo;</a>', 'INVALID_XML'],
    ['<a>AT&T</a>', 'INVALID_XML'],
    ['<a x="&bar;"/>', 'INVALID_XML'],
    ['<!-- only a comment -->', 'INVALID_XML'],
    ['<!DOCTYPE a><a/>', 'XML_DOCTYPE_FORBIDDEN'],
    [
      '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;">]><lolz>&lol2;</lolz>',
      'XML_DOCTYPE_FORBIDDEN',
    ],
    ['<!ENTITY x "y"><a/>', 'INVALID_XML'],
    ['<a/><?xml version="1.0"?>', 'INVALID_XML'],
    [' <?xml version="1.0"?><a/>', 'INVALID_XML'],
    ['<a b="1"c="2"/>', 'INVALID_XML'],
    ['<a b="1" b="2"/>', 'INVALID_XML'],
    [`<a ${Array.from({ length: 50 }, (_, i) => `n${i}="${i}"`).join(' ')} n42="again"/>`, 'INVALID_XML'],
    ['<a b/>', 'INVALID_XML'],
    ['< a/>', 'INVALID_XML'],
    ['<1a/>', 'INVALID_XML'],
    ['<a></ a>', 'INVALID_XML'],
    ['</a>', 'INVALID_XML'],
    ['<a><!--- </a>', 'INVALID_XML'],
    ['<a><![CDATA[x</a>', 'INVALID_XML'],
    ['<a><?pi</a>', 'INVALID_XML'],
    ['<a>&amp</a>', 'INVALID_XML'],
    ['<a>&#;</a>', 'INVALID_XML'],
    ['<a>&#xZZ;</a>', 'INVALID_XML'],
    ['<a>\uD800</a>', 'INVALID_XML'],
    ['<a>\uDC00x</a>', 'INVALID_XML'],
    ['<a b="\uFFFF"/>', 'INVALID_XML'],
    [`<a>${'x'.repeat(100_000)}\u0001</a>`, 'INVALID_XML'],
    [`<a v="${'v'.repeat(100_000)}&nbsp;"/>`, 'INVALID_XML'],
    [`<a><!-- ${'c'.repeat(100_000)}\u0000 --></a>`, 'INVALID_XML'],
  ])('rejects %j with %s', (xml, code) => {
    expect(codeOf(xml)).toBe(code);
  });

  it('names where the document breaks', () => {
    expect(() => assertWellFormedXml('<a>\n<b></a>')).toThrow(/line 2, column 4/);
    expect(() => assertWellFormedXml('<a>\n  <b>\n</b>')).toThrow(/<a> is never closed \(line 1, column 1\)/);
    expect(() => assertWellFormedXml(`<a>${'x'.repeat(70_000)}\u0000</a>`)).toThrow(
      'body contains U+0000 at character 70003, which XML 1.0 does not allow',
    );
  });

  it('counts lines and columns in characters, as the text holds them, whatever their UTF-8 length', () => {
    expect(() => assertWellFormedXml('<Häst>\n<Å></Häst>')).toThrow(
      'closing tag </Häst> does not match <Å> (line 2, column 4)',
    );
    expect(() => assertWellFormedXml(Buffer.from('<a>åä🐎\u0001</a>'))).toThrow(
      'body contains U+0001 at character 7, which XML 1.0 does not allow',
    );
    expect(() => assertWellFormedXml(Buffer.from('<a>ö\uFFFE</a>'))).toThrow(
      'body contains U+FFFE at character 4, which XML 1.0 does not allow',
    );
    expect(() => assertWellFormedXml('<a>ö\uDC00</a>')).toThrow(
      'body contains U+DC00 at character 4, which XML 1.0 does not allow',
    );
  });

  it('quotes long names only in part', () => {
    const name = 'Z'.repeat(10_000);
    expect(() => assertWellFormedXml(`<${name}></b>`)).toThrow(/^(?!.*Z{65}).{0,300}$/s);
  });
});

/** Documents, most of them broken somewhere, from pieces of XML and of mistakes. */
const pieces = fc.constantFrom(
  '<a>',
  '</a>',
  '<b x="1" y=\'&amp;\'>',
  '</b>',
  '<c/>',
  '<c x="1" x="2"/>',
  'text',
  ' ',
  '\n',
  '&lt;',
  '&foo;',
  '&#65;',
  '&#0;',
  '&',
  '<!-- c -->',
  '<![CDATA[<x>]]>',
  '<?pi x?>',
  '<?xml version="1.0"?>',
  '<!DOCTYPE a>',
  '<',
  '>',
  '"',
  '=',
  '/',
  '<1/>',
  '\u0000',
  '\uD800',
  '\u{1F600}',
  '<é/>',
  '\uFEFF',
  'x'.repeat(70),
  'Åby',
  '<Häst namn="Åskvigg">',
  '</Häst>',
  '<\u{10000}>',
  '</\u{10000}>',
  '\uDC00',
  '\uFFFE',
  '\uFFFD',
  '&ä;',
  '<ab·c/>',
  '<\u0300/>',
  '\u3000',
  '\r\n',
);
const documents = fc.array(pieces, { maxLength: 12 }).map((parts) => parts.join(''));

function verdictOf(check: () => void): string {
  try {
    check();
    return 'accepted';
  } catch (err) {
    if (!isSimError(err)) throw err;
    return `${err.code}: ${err.message}`;
  }
}

describe('XmlCheck a slice at a time', () => {
  it('gives every document the verdict of one whole check, whatever the slice size', () => {
    fc.assert(
      fc.property(documents, fc.integer({ min: 1, max: 64 }), (xml, slice) => {
        const whole = verdictOf(() => assertWellFormedXml(xml));
        const sliced = verdictOf(() => {
          if (xml.trim() === '') return assertWellFormedXml(xml);
          const check = new XmlCheck(utf8Of(xml));
          let steps = 0;
          while (!check.step(slice)) expect(++steps).toBeLessThanOrEqual(xml.length);
        });
        expect(sliced).toBe(whole);
      }),
      { numRuns: 3000 },
    );
  });

  it('hands the event loop on between slices of a long document, and only then', async () => {
    let turns = 0;
    const yieldTurn = () => {
      turns++;
      return Promise.resolve();
    };
    await checkWellFormedXml(`<a>${'<b>x</b>'.repeat(10_000)}</a>`, yieldTurn, 1000);
    expect(turns).toBeGreaterThanOrEqual(79);
    turns = 0;
    await checkWellFormedXml('<a><b>x</b></a>', yieldTurn, 1000);
    expect(turns).toBe(0);
    await expect(
      checkWellFormedXml(`<a>${'<b>x</b>'.repeat(10_000)}`, yieldTurn, 1000),
    ).rejects.toMatchObject({
      code: 'INVALID_XML',
    });
  });
});
