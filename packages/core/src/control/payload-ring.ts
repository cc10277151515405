/**
 * The payloads of the latest received messages, by journal seq, for the console's row details
 * (GET /_sim/messages/{seq}). Bounded in bytes, not entries: a race-day programme is a hundred
 * times the size of a countdown tick. Oldest dropped first; a payload larger than the whole
 * budget is not kept at all.
 */
export class PayloadRing {
  private readonly bySeq = new Map<number, string>();
  private bytes = 0;

  constructor(readonly maxBytes: number) {}

  get size(): number {
    return this.bySeq.size;
  }

  get bytesHeld(): number {
    return this.bytes;
  }

  put(seq: number, payload: string): void {
    // UTF-16 length as the measure: what the string costs in memory, without encoding it.
    const cost = payload.length * 2;
    if (this.maxBytes <= 0 || cost > this.maxBytes) return;
    this.bySeq.set(seq, payload);
    this.bytes += cost;
    // A Map iterates in insertion order, and seqs only grow: the first key is the oldest.
    for (const [oldSeq, old] of this.bySeq) {
      if (this.bytes <= this.maxBytes) break;
      this.bySeq.delete(oldSeq);
      this.bytes -= old.length * 2;
    }
  }

  get(seq: number): string | undefined {
    return this.bySeq.get(seq);
  }

  clear(): void {
    this.bySeq.clear();
    this.bytes = 0;
  }
}
