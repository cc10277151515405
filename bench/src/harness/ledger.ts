import { median } from './rows';
import { monoMs } from './processes';
import { receives, type BenchUser } from './users-file';

/**
 * What a poster sent of one message kind (the soak's, the abuse run's): sequence numbers
 * 1..count, each with its target channel, the time its POST went out (monoMs) and whether the
 * simulator took it.
 */
export class PostLog {
  readonly sentAt: Float64Array;
  readonly target: string[] = [''];
  readonly ok: Uint8Array;
  count = 0;
  /** Posts not taken (no 2xx answer), and of those the ones with no answer at all. */
  failed = 0;
  errors = 0;

  constructor(readonly max: number) {
    this.sentAt = new Float64Array(max + 1);
    this.ok = new Uint8Array(max + 1);
  }

  /** Registers the next message as its POST goes out; returns its sequence number. */
  next(target: string): number {
    this.sentAt[++this.count] = monoMs();
    this.target[this.count] = target;
    return this.count;
  }

  /** The answer to post `seq`: its HTTP status, 0 for none (a network error). */
  settle(seq: number, status: number): void {
    if (status >= 200 && status < 300) this.ok[seq] = 1;
    else [this.failed, this.errors] = [this.failed + 1, this.errors + (status === 0 ? 1 : 0)];
  }
}

export const spread = (values: readonly number[]) =>
  values.length === 0
    ? { min: Number.NaN, median: Number.NaN, max: Number.NaN }
    : { min: Math.min(...values), median: median(values), max: Math.max(...values) };

/**
 * Messages that must reach each receiver once: legacy durable messages per user (through any one
 * of that user's pollers), JSON durable events per poller of /events, transient messages per
 * connected client (STOMP, event stream). Receiver r is a client of user r mod users; receipts
 * are counted per (receiver, message). Corrupt: content that does not match the post of its number.
 */
export class ReceiptLedger {
  readonly counts = { deliveries: 0, duplicated: 0, foreign: 0, corrupt: 0 };
  /** Post -> first receipt, ms. */
  readonly latency: number[] = [];
  private readonly received: Uint8Array;
  /** First receipts per receiver. */
  readonly perReceiver: Uint32Array;
  /** The highest order (a JSON eventId) each receiver has seen. */
  private readonly order: Float64Array;
  disconnects = 0;
  /** Answers that were neither data nor an empty long poll (401, 500, unparsable bodies), and the last. */
  readonly odd = { count: 0, last: '' };
  /** A message first received after one of a higher order (a JSON eventId not above the last). */
  outOfOrder = 0;

  constructor(
    readonly posts: PostLog,
    readonly users: readonly BenchUser[],
    readonly receivers: number,
  ) {
    this.received = new Uint8Array((posts.max + 1) * receivers);
    this.perReceiver = new Uint32Array(receivers);
    this.order = new Float64Array(receivers);
  }

  private user(receiver: number): BenchUser {
    return this.users[receiver % this.users.length] as BenchUser;
  }

  /** Counts a receipt (arrived at monoMs `at`), of `order` in its stream when it has one. */
  record(receiver: number, seq: number, at: number, matches: boolean, order?: number): void {
    this.counts.deliveries++;
    if (!(Number.isInteger(seq) && seq >= 1 && seq <= this.posts.count) || !matches) {
      this.counts.corrupt++;
      return;
    }
    if (!receives(this.user(receiver), this.posts.target[seq] as string)) this.counts.foreign++;
    const cell = receiver * (this.posts.max + 1) + seq;
    const seen = this.received[cell] as number;
    if (seen > 0) this.counts.duplicated++;
    else {
      this.perReceiver[receiver] = (this.perReceiver[receiver] as number) + 1;
      this.latency.push(at - (this.posts.sentAt[seq] as number));
    }
    this.received[cell] = Math.min(255, seen + 1);
    if (order === undefined) return;
    if (order > (this.order[receiver] as number)) this.order[receiver] = order;
    else if (seen === 0) this.outOfOrder++;
  }

  /** Accepted (receiver, message) pairs never received; `into` gets the first few. */
  missing(into?: Array<{ seq: number; user: string; target: string }>): number {
    let lost = 0;
    for (let seq = 1; seq <= this.posts.count; seq++) {
      const target = this.posts.target[seq] as string;
      for (let r = 0; r < this.receivers && this.posts.ok[seq]; r++) {
        const user = this.user(r);
        if (this.received[r * (this.posts.max + 1) + seq] !== 0 || !receives(user, target)) continue;
        lost++;
        if (into && into.length < 10) into.push({ seq, user: user.key, target });
      }
    }
    return lost;
  }

  /** Accepted messages each receiver is meant to get. */
  expected(): number[] {
    const { ok, target, count } = this.posts;
    const meant = (user: BenchUser, seq: number) => ok[seq] === 1 && receives(user, target[seq] as string);
    const perUser = this.users.map(
      (user) => Array.from({ length: count }, (_, k) => k + 1).filter((seq) => meant(user, seq)).length,
    );
    return Array.from({ length: this.receivers }, (_, r) => perUser[r % this.users.length] as number);
  }
}
