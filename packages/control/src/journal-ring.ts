import type { JournalRecord } from './journal-types';
import type { JournalFilter } from './wire';

const KINDS = ['received', 'delivered', 'closed'] as const;
type Kind = (typeof KINDS)[number];
const KIND_CODE: Record<Kind, number> = { received: 0, delivered: 1, closed: 2 };

/** A held entry as listeners and readers get it: the record with its time as a number. */
export type StoredRecord = JournalRecord & { readonly at: number };

/** What every entry of a run (JournalRing.pushEach) shares: all of an entry but its seq and user. */
export interface SharedFields {
  readonly kind: Kind;
  readonly at: number;
  readonly via: string;
  readonly channel: string | undefined;
  readonly eventId: number | undefined;
  readonly payloadKey: string | undefined;
  readonly num: number;
}

/**
 * The journal's entries in columns: typed arrays for the numbers and plain arrays holding
 * references to strings the callers already have (user keys, channel names, payload keys).
 * Recording an entry allocates nothing, and the garbage collector never walks ten thousand
 * small objects that live just long enough to be promoted: one journal entry per delivered
 * event was a measurable share of a page read's CPU when each was an object.
 */
export class JournalRing {
  private start = 0;
  private held = 0;
  private capacity = 0;
  private seqs = new Float64Array(0);
  private times = new Float64Array(0);
  private kinds = new Uint8Array(0);
  /** eventId, NaN when the entry has none. */
  private eventIds = new Float64Array(0);
  /** HTTP status of a delivery, close code of a closed session, 1/0 for a received message's durable flag. */
  private numbers = new Int32Array(0);
  private users: Array<string | undefined> = [];
  /** The transport of a delivery or closed session; the source of a received message. */
  private vias: string[] = [];
  private channels: Array<string | undefined> = [];
  private payloadKeys: Array<string | undefined> = [];

  constructor(private readonly max: number) {}

  get size(): number {
    return this.held;
  }

  /** The seq of the oldest held entry (entries hold consecutive seqs), or undefined when empty. */
  get firstSeq(): number | undefined {
    return this.held === 0 ? undefined : (this.seqs[this.start] as number);
  }

  push(
    kind: Kind,
    seq: number,
    at: number,
    user: string | undefined,
    via: string,
    channel: string | undefined,
    eventId: number | undefined,
    payloadKey: string | undefined,
    num: number,
  ): void {
    if (this.max <= 0) return;
    let slot: number;
    if (this.held < this.max) {
      if (this.held === this.capacity) this.grow();
      slot = (this.start + this.held) % this.capacity;
      this.held++;
    } else {
      slot = this.start;
      this.start = (this.start + 1) % this.capacity;
    }
    this.seqs[slot] = seq;
    this.times[slot] = at;
    this.kinds[slot] = KIND_CODE[kind];
    this.eventIds[slot] = eventId ?? Number.NaN;
    this.numbers[slot] = num;
    this.users[slot] = user;
    this.vias[slot] = via;
    this.channels[slot] = channel;
    this.payloadKeys[slot] = payloadKey;
  }

  /**
   * push() of one entry per user, with seqs `firstSeq`, `firstSeq + 1`, … and everything else
   * shared: the deliveries of one message to its recipients. The shared columns are filled a
   * stretch of slots at a time and only the seq and user are written per entry: a fan-out to a
   * thousand sessions records a thousand entries per message, and entry by entry that showed in
   * the CPU each delivery costs (the fan-out bench).
   */
  pushEach(firstSeq: number, users: readonly (string | undefined)[], shared: SharedFields): void {
    if (this.max <= 0) return;
    const { kind, at, via, channel, eventId, payloadKey, num } = shared;
    // Entries a run longer than the ring would drop before it ends are never written.
    let next = Math.max(0, users.length - this.max);
    while (next < users.length) {
      let slot: number;
      let count: number;
      if (this.held < this.max) {
        if (this.held === this.capacity) this.grow();
        slot = (this.start + this.held) % this.capacity;
        count = Math.min(users.length - next, this.capacity - this.held, this.capacity - slot);
        this.held += count;
      } else {
        slot = this.start;
        count = Math.min(users.length - next, this.capacity - slot);
        this.start = (slot + count) % this.capacity;
      }
      const end = slot + count;
      this.times.fill(at, slot, end);
      this.kinds.fill(KIND_CODE[kind], slot, end);
      this.eventIds.fill(eventId ?? Number.NaN, slot, end);
      this.numbers.fill(num, slot, end);
      this.vias.fill(via, slot, end);
      this.channels.fill(channel, slot, end);
      this.payloadKeys.fill(payloadKey, slot, end);
      for (let k = slot, i = next; k < end; k++, i++) {
        this.seqs[k] = firstSeq + i;
        this.users[k] = users[i];
      }
      next += count;
    }
  }

  /** Index (0 = oldest) of the first held entry with a seq above `since`. */
  firstAfter(since: number): number {
    const first = this.firstSeq;
    if (first === undefined) return 0;
    return Math.min(this.held, Math.max(0, since - first + 1));
  }

  matches(i: number, filter: JournalFilter): boolean {
    const slot = this.slot(i);
    const kind = KINDS[this.kinds[slot] as number] as Kind;
    if (filter.since !== undefined && (this.seqs[slot] as number) <= filter.since) return false;
    if (filter.kind !== undefined && kind !== filter.kind) return false;
    if (filter.channel !== undefined && (kind === 'closed' || this.channels[slot] !== filter.channel))
      return false;
    if (filter.user !== undefined && (kind === 'received' || this.users[slot] !== filter.user)) return false;
    if (filter.transport !== undefined && (kind === 'received' || this.vias[slot] !== filter.transport)) {
      return false;
    }
    return true;
  }

  /** The i-th held entry (0 = oldest) as a record. */
  record(i: number): StoredRecord {
    const slot = this.slot(i);
    const seq = this.seqs[slot] as number;
    const at = this.times[slot] as number;
    const num = this.numbers[slot] as number;
    const eventId = this.eventIds[slot] as number;
    const ref = {
      ...(!Number.isNaN(eventId) && { eventId }),
      ...(this.payloadKeys[slot] !== undefined && { payloadKey: this.payloadKeys[slot] }),
    };
    switch (KINDS[this.kinds[slot] as number]) {
      case 'received':
        return {
          seq,
          at,
          kind: 'received',
          source: this.vias[slot],
          channel: this.channels[slot],
          durable: num === 1,
          ...ref,
          ...(this.users[slot] !== undefined && { action: this.users[slot] }),
        } as StoredRecord;
      case 'delivered':
        return {
          seq,
          at,
          kind: 'delivered',
          user: this.users[slot],
          transport: this.vias[slot],
          channel: this.channels[slot],
          ...ref,
          status: num,
        } as StoredRecord;
      default:
        return {
          seq,
          at,
          kind: 'closed',
          user: this.users[slot],
          transport: this.vias[slot],
          code: num,
        } as StoredRecord;
    }
  }

  clear(): void {
    this.start = 0;
    this.held = 0;
    this.users.fill(undefined);
    this.channels.fill(undefined);
    this.payloadKeys.fill(undefined);
  }

  private slot(i: number): number {
    return (this.start + i) % this.capacity;
  }

  /** Doubles the columns (up to the journal's size), keeping the entries oldest first. */
  private grow(): void {
    const capacity = Math.min(this.max, Math.max(64, this.capacity * 2));
    const order = (from: number) => (this.start + from) % Math.max(1, this.capacity);
    const typed = <T extends Float64Array | Int32Array | Uint8Array>(old: T, make: (n: number) => T): T => {
      const next = make(capacity);
      for (let i = 0; i < this.held; i++) next[i] = old[order(i)] as number;
      return next;
    };
    const plain = <T>(old: T[]): T[] => {
      const next = new Array<T>(capacity);
      for (let i = 0; i < this.held; i++) next[i] = old[order(i)] as T;
      return next;
    };
    this.seqs = typed(this.seqs, (n) => new Float64Array(n));
    this.times = typed(this.times, (n) => new Float64Array(n));
    this.kinds = typed(this.kinds, (n) => new Uint8Array(n));
    this.eventIds = typed(this.eventIds, (n) => new Float64Array(n));
    this.numbers = typed(this.numbers, (n) => new Int32Array(n));
    this.users = plain(this.users);
    this.vias = plain(this.vias);
    this.channels = plain(this.channels);
    this.payloadKeys = plain(this.payloadKeys);
    this.start = 0;
    this.capacity = capacity;
  }
}
