import { ManualClock } from '@racedata/core';
import { Journal } from '../src/journal';
import { PayloadRing } from '../src/payload-ring';

describe('PayloadRing', () => {
  it('keeps payloads by seq within its byte budget, dropping the oldest first', () => {
    // Each 20-character payload costs 40 bytes of text and 96 of bookkeeping.
    const ring = new PayloadRing(300);
    ring.put(1, 'a'.repeat(20));
    ring.put(2, 'b'.repeat(20));
    expect(ring.size).toBe(2);
    ring.put(3, 'c'.repeat(20));
    expect(ring.get(1)).toBeUndefined();
    expect(ring.get(2)).toBe('b'.repeat(20));
    expect(ring.get(3)).toBe('c'.repeat(20));
    expect(ring.bytesHeld).toBe(272);
  });

  it('keeps no more payloads than entries the journal holds', () => {
    const ring = new PayloadRing(1_000_000, 2);
    for (let seq = 1; seq <= 5; seq++) ring.put(seq, `p${seq}`);
    expect(ring.size).toBe(2);
    expect([ring.get(3), ring.get(4), ring.get(5)]).toEqual([undefined, 'p4', 'p5']);
  });

  it('keeps UTF-8 bytes as they are, counted by their length, and reads them as text', () => {
    const ring = new PayloadRing(300);
    const bytes = Buffer.from('<Häst namn="Åskvigg"/>', 'utf8');
    ring.put(1, bytes);
    expect(ring.bytesHeld).toBe(bytes.length + 96);
    expect(ring.get(1)).toBe('<Häst namn="Åskvigg"/>');
  });

  it('does not keep a payload larger than the whole budget', () => {
    const ring = new PayloadRing(110);
    ring.put(1, 'abc');
    ring.put(2, 'x'.repeat(8));
    expect(ring.get(2)).toBeUndefined();
    expect(ring.get(1)).toBe('abc');
  });
});

describe('Journal payloads and listeners', () => {
  it('keeps what a received message carried, serialised, and clears it with the journal', () => {
    const journal = new Journal(new ManualClock(), 10, 1000);
    journal.received({ source: 'post', channel: 'A', durable: true, eventId: 1 }, { channel: 'A', n: 1 });
    journal.received({ source: 'inject', channel: 'B', durable: false }, '<B/>');
    journal.received({ source: 'inject', channel: 'C', durable: true }, Buffer.from('<C>ö</C>'));
    expect(journal.payloads.get(1)).toBe('{"channel":"A","n":1}');
    expect(journal.payloads.get(2)).toBe('<B/>');
    expect(journal.payloads.get(3)).toBe('<C>ö</C>');
    expect(journal.get(2)).toMatchObject({ seq: 2, kind: 'received', channel: 'B' });
    expect(journal.get(4)).toBeUndefined();
    journal.clear();
    expect(journal.payloads.size).toBe(0);
  });

  it('keeps nothing when off (CONTROL_API=off)', () => {
    const journal = new Journal(new ManualClock(), 0);
    journal.received({ source: 'post', channel: 'A', durable: true }, { big: 'x' });
    expect(journal.payloads.size).toBe(0);
  });

  it('onEntry returns the function that removes the listener', () => {
    const journal = new Journal(new ManualClock(), 10);
    const seen: number[] = [];
    const off = journal.onEntry((e) => seen.push(e.seq));
    expect(journal.listenerCount).toBe(1);
    journal.received({ source: 'post', channel: 'A', durable: true });
    off();
    journal.received({ source: 'post', channel: 'A', durable: true });
    expect(seen).toEqual([1]);
    expect(journal.listenerCount).toBe(0);
  });
});
