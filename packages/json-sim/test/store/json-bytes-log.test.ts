import { JsonBytesLog } from '../../src/store/json-bytes-log';

/** The log's slabs, to check they are released; there is no public view of them. */
const slabsOf = (log: JsonBytesLog) => (log as unknown as { slabs: Buffer[] }).slabs;

/** Checks every kept text against the reference, by text, by length and by copy. */
function expectSame(log: JsonBytesLog, reference: readonly string[]): void {
  expect(log.length).toBe(reference.length);
  reference.forEach((text, i) => {
    const bytes = Buffer.from(text, 'utf8');
    expect(log.text(i)).toBe(text);
    expect(log.byteLength(i)).toBe(bytes.length);
    const target = Buffer.alloc(bytes.length + 4, 0xee);
    expect(log.copyTo(i, target, 2)).toBe(bytes.length);
    expect(target.subarray(2, 2 + bytes.length).equals(bytes)).toBe(true);
    // Nothing written outside the text's place.
    expect([target[0], target[1], target[bytes.length + 2], target[bytes.length + 3]]).toEqual([
      0xee, 0xee, 0xee, 0xee,
    ]);
  });
}

describe('JsonBytesLog', () => {
  test('keeps texts in order, non-ASCII and empty ones included', () => {
    const log = new JsonBytesLog();
    const texts = ['{"a":1}', '', '{"track":"Åby","horse":"🐎 Järvsöfaks"}', '"\\u2028"'];
    for (const text of texts) log.push(text);
    expectSame(log, texts);
  });

  test('fills slabs to the edge, starts a new one for a text that does not fit', () => {
    const log = new JsonBytesLog();
    const reference: string[] = [];
    // 300 texts of 10,000 bytes: about three 1 MiB slabs, with texts meeting each slab's end.
    for (let i = 0; i < 300; i++) {
      const text = `${String(i).padStart(6, '0')}${'x'.repeat(9_994)}`;
      log.push(text);
      reference.push(text);
    }
    expectSame(log, reference);
    expect(slabsOf(log).length).toBe(3);
  });

  test('a text larger than a slab gets a slab of its own size', () => {
    const log = new JsonBytesLog();
    const big = `{"payload":"${'ä'.repeat(700_000)}"}`;
    log.push('{"before":true}');
    log.push(big);
    log.push('{"after":true}');
    expectSame(log, ['{"before":true}', big, '{"after":true}']);
    expect(log.byteLength(1)).toBeGreaterThan(1 << 20);
  });

  test('drops at the head, wraps and grows its ring, and releases emptied slabs', () => {
    const log = new JsonBytesLog();
    const reference: string[] = [];
    let n = 0;
    const push = (count: number) => {
      for (let k = 0; k < count; k++, n++) {
        const text = `{"n":${n},"pad":"${'y'.repeat(n % 700)}"}`;
        log.push(text);
        reference.push(text);
      }
    };
    const shift = (count: number) => {
      for (let k = 0; k < count; k++) {
        log.shift();
        reference.shift();
      }
    };
    push(1000);
    shift(900);
    // The ring holds 1024 entries at first: these wrap past its end, then force it to grow.
    push(1000);
    expectSame(log, reference);
    shift(600);
    push(3000);
    expectSame(log, reference);
    shift(reference.length);
    expect(log.length).toBe(0);
    // Only the slab that new texts go into is kept once everything is dropped.
    expect(slabsOf(log).length).toBe(1);
    log.shift();
    expect(log.length).toBe(0);
    push(3);
    expectSame(log, reference);
  });

  test('memory stays bounded under a sliding window', () => {
    const log = new JsonBytesLog();
    const text = `{"pad":"${'z'.repeat(400)}"}`;
    for (let i = 0; i < 50_000; i++) {
      log.push(text);
      if (log.length > 5_000) log.shift();
    }
    // 5,000 texts of ~410 bytes are 2 MiB: the slab holding them, its neighbour, the newest.
    expect(slabsOf(log).length).toBeLessThanOrEqual(3);
    expect(log.text(4_999)).toBe(text);
  });
});
