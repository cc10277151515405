import { isSimError } from '@racedata/core';
import { assertWellFormedXml } from '../src/xml-check';

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
  ])('rejects %j with %s', (xml, code) => {
    expect(codeOf(xml)).toBe(code);
  });

  it('names where the document breaks', () => {
    expect(() => assertWellFormedXml('<a>\n<b></a>')).toThrow(/line 2/);
  });
});
