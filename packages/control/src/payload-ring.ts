/** What holding one payload costs besides its characters: the map entry and the string header. */
const ENTRY_OVERHEAD_BYTES = 96;

/**
 * The payloads of the latest received messages, by journal seq, for the console's row details
 * (GET /_sim/messages/{seq}). Bounded in bytes, since a race-day programme is a hundred times the
 * size of a countdown tick, and in entries: a payload whose journal entry is gone cannot be asked
 * for. Oldest dropped first; a payload larger than the whole budget is not kept at all.
 */
export class PayloadRing {
  private readonly bySeq = new Map<number, string | Uint8Array>();
  private bytes = 0;

  constructor(
    readonly maxBytes: number,
    readonly maxEntries = Number.POSITIVE_INFINITY,
  ) {}

  get size(): number {
    return this.bySeq.size;
  }

  get bytesHeld(): number {
    return this.bytes;
  }

  /** `payload`: text, or UTF-8 bytes kept as they are and decoded only when asked for. */
  put(seq: number, payload: string | Uint8Array): void {
    const cost = costOf(payload);
    if (this.maxBytes <= 0 || this.maxEntries <= 0 || cost > this.maxBytes) return;
    this.bySeq.set(seq, payload);
    this.bytes += cost;
    // A Map iterates in insertion order, and seqs only grow: the first key is the oldest.
    for (const [oldSeq, old] of this.bySeq) {
      if (this.bytes <= this.maxBytes && this.bySeq.size <= this.maxEntries) break;
      this.bySeq.delete(oldSeq);
      this.bytes -= costOf(old);
    }
  }

  get(seq: number): string | undefined {
    const payload = this.bySeq.get(seq);
    if (payload === undefined || typeof payload === 'string') return payload;
    // A view of the same memory: Buffer.from(payload) alone would copy it first.
    return Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength).toString('utf8');
  }

  clear(): void {
    this.bySeq.clear();
    this.bytes = 0;
  }
}

/**
 * UTF-16 length as the measure of a string (what it costs in memory, without encoding it), and
 * the byte length of bytes.
 */
function costOf(payload: string | Uint8Array): number {
  return (typeof payload === 'string' ? payload.length * 2 : payload.byteLength) + ENTRY_OVERHEAD_BYTES;
}
