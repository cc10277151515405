import { LARGE_DOCUMENT_CHARS, QueuedDocument } from '../../src/queue/queued-document';
import { alice, bob, freshQueues } from './legacy-queues-support';

/** A document at least `chars` long, with what JSON escapes and characters beyond ASCII. */
const documentOf = (chars: number) => `<m a="1">\n\tÅ\\${'x'.repeat(Math.max(0, chars - 18))}\u2028</m>`;

/** The answer the long poll gives for `xml`, as bytes. */
const expectedAnswer = (xml: string) => Buffer.from(JSON.stringify(xml), 'utf8');

/** The bytes a held body answers with, and the Content-Length it declares, checked to agree. */
function answerBytes(document: QueuedDocument): Buffer {
  const { body, length } = document.answer();
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  expect(length).toBe(String(bytes.length));
  return bytes;
}

describe('QueuedDocument', () => {
  test('a small document is answered as its JSON string', () => {
    const xml = documentOf(100);
    const document = new QueuedDocument({ xml });
    expect(document.answer().body).toBe(JSON.stringify(xml));
    expect(answerBytes(document).equals(expectedAnswer(xml))).toBe(true);
    expect(document.xml).toBe(xml);
  });

  test('a large document is answered with the UTF-8 bytes of its JSON string, made once', () => {
    const xml = documentOf(LARGE_DOCUMENT_CHARS);
    const document = new QueuedDocument({ xml });
    expect(Buffer.isBuffer(document.answer().body)).toBe(true);
    expect(answerBytes(document).equals(expectedAnswer(xml))).toBe(true);
    expect(document.answer()).toBe(document.answer());
    expect(document.xml).toBe(xml);
  });

  test('bytes switch in at LARGE_DOCUMENT_CHARS of document', () => {
    const below = `<a>${'x'.repeat(LARGE_DOCUMENT_CHARS - 8)}</a>`;
    expect(below.length).toBe(LARGE_DOCUMENT_CHARS - 1);
    expect(typeof new QueuedDocument({ xml: below }).answer().body).toBe('string');
    expect(Buffer.isBuffer(new QueuedDocument({ xml: `${below} ` }).answer().body)).toBe(true);
  });

  test("a large injected body's own bytes are kept, and answered the same as its text", () => {
    const xml = documentOf(2 * LARGE_DOCUMENT_CHARS);
    const utf8 = Buffer.from(xml, 'utf8');
    const document = new QueuedDocument({ xml, utf8 });
    expect(document.xml).toBe(xml);
    utf8[1] = 'n'.charCodeAt(0);
    expect(document.xml).toBe(`<n${xml.slice(2)}`);
    expect(answerBytes(document).equals(expectedAnswer(`<n${xml.slice(2)}`))).toBe(true);
  });

  test('a view into a larger buffer is copied, so it does not keep the rest alive', () => {
    const xml = documentOf(2 * LARGE_DOCUMENT_CHARS);
    const withMark = Buffer.from(`\uFEFF${xml}`, 'utf8');
    const document = new QueuedDocument({ xml, utf8: withMark.subarray(3) });
    withMark.fill(0);
    expect(document.xml).toBe(xml);
    const answer = document.answer().body as Buffer;
    expect(answer.buffer.byteLength).toBe(answer.length);
  });
});

describe('a queued message', () => {
  const { current, take } = freshQueues();

  test('holds one document however many users queue it, counted in UTF-8 bytes', async () => {
    const xml = documentOf(2 * LARGE_DOCUMENT_CHARS);
    current.queues.enqueue([alice, bob], { channel: null, payloadKey: 'k', xml, utf8: Buffer.from(xml) });
    const [a, b] = [await take(alice, 0), await take(bob, 0)];
    expect(a?.message.document).toBe(b?.message.document);
    expect(a?.message.document.answer().body).toBe(b?.message.document.answer().body);
    expect(current.queues.queuedBytes).toBe(Buffer.byteLength(xml, 'utf8'));
  });
});
