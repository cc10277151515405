import { decodeXmlBody, decodeXmlBodyWithBytes } from '../src/http/xml-body';

const latin1 = (text: string) => Buffer.from(text, 'latin1');

describe('decodeXmlBody', () => {
  it('reads UTF-8 by default and drops a byte-order mark', () => {
    expect(decodeXmlBody(Buffer.from('\uFEFF<Horse name="Åskvigg"/>', 'utf8'), undefined)).toBe(
      '<Horse name="Åskvigg"/>',
    );
  });

  it('honours the charset of the content type', () => {
    expect(decodeXmlBody(latin1('<Horse name="Åskvigg"/>'), 'text/xml; charset=ISO-8859-1')).toBe(
      '<Horse name="Åskvigg"/>',
    );
  });

  it('falls back to the encoding the XML declaration names', () => {
    const doc = '<?xml version="1.0" encoding="ISO-8859-1"?><Horse name="Blåbär"/>';
    expect(decodeXmlBody(latin1(doc), 'application/json')).toBe(doc);
  });

  it('lets the content type win over the declaration', () => {
    const doc = '<?xml version="1.0" encoding="ISO-8859-1"?><Horse name="Öst"/>';
    expect(decodeXmlBody(Buffer.from(doc, 'utf8'), 'application/xml; charset=utf-8')).toBe(doc);
  });

  it('refuses an unknown charset with 415', () => {
    expect(() => decodeXmlBody(Buffer.from('<a/>'), 'text/xml; charset=klingon')).toThrow(
      expect.objectContaining({ status: 415, code: 'UNSUPPORTED_CHARSET' }),
    );
  });

  it('hands back the UTF-8 body itself, after its byte-order mark, and no bytes for another charset', () => {
    const body = Buffer.from('<Horse name="Åskvigg"/>', 'utf8');
    const plain = decodeXmlBodyWithBytes(body, 'text/xml');
    expect(plain.utf8).toBe(body);
    const marked = decodeXmlBodyWithBytes(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), body]), undefined);
    expect(marked.xml).toBe('<Horse name="Åskvigg"/>');
    expect(marked.utf8?.equals(body)).toBe(true);
    const other = decodeXmlBodyWithBytes(latin1('<Horse name="Åskvigg"/>'), 'text/xml; charset=ISO-8859-1');
    expect(other).toEqual({ xml: '<Horse name="Åskvigg"/>', utf8: undefined });
  });

  it('does not decode a large UTF-8 body: it comes back as its bytes alone, still checked as UTF-8', () => {
    const doc = `<Lopp>${'<Häst namn="Åskvigg"/>'.repeat(1_000)}</Lopp>`;
    const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(doc, 'utf8')]);
    const large = decodeXmlBodyWithBytes(body, 'text/xml');
    expect(large.xml).toBeUndefined();
    expect(large.utf8?.toString('utf8')).toBe(doc);
    const broken = Buffer.concat([body, Buffer.from([0xc3])]);
    expect(() => decodeXmlBodyWithBytes(broken, undefined)).toThrow(
      expect.objectContaining({ status: 400, code: 'INVALID_XML' }),
    );
  });
});
