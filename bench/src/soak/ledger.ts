import { Samples, median } from '../harness/stats';
import { KINDS, type MessageKind, type SoakConfig } from './config';
import { receives, type SoakUser } from './users';

/**
 * What the poster sent of one message kind: sequence numbers 1..count, each with its target
 * channel, the time its POST went out (performance.now() of this process) and whether the
 * simulator took it.
 */
export class PostLog {
  readonly sentAt: Float64Array;
  readonly target: string[] = [''];
  readonly ok: Uint8Array;
  count = 0;
  failed = 0;

  constructor(readonly max: number) {
    this.sentAt = new Float64Array(max + 1);
    this.ok = new Uint8Array(max + 1);
  }

  /** Registers the next message before its POST goes out; returns its sequence number. */
  next(target: string, at: number): number {
    const seq = ++this.count;
    this.sentAt[seq] = at;
    this.target[seq] = target;
    return seq;
  }

  settle(seq: number, ok: boolean): void {
    if (ok) this.ok[seq] = 1;
    else this.failed++;
  }

  known(seq: number): boolean {
    return Number.isInteger(seq) && seq >= 1 && seq <= this.count;
  }

  /** Accepted messages a user is meant to receive. */
  expectedFor(user: SoakUser): number {
    let n = 0;
    for (let seq = 1; seq <= this.count; seq++)
      if (this.ok[seq] && receives(user, this.target[seq] as string)) n++;
    return n;
  }
}

/** Counts of every delivery check; corrupt: content that does not match the post of its sequence number. */
const newCounts = () => ({ deliveries: 0, duplicated: 0, foreign: 0, corrupt: 0 });

export function spread(values: readonly number[]) {
  if (values.length === 0) return { min: Number.NaN, median: Number.NaN, max: Number.NaN };
  return { min: Math.min(...values), median: median(values), max: Math.max(...values) };
}

/**
 * Messages that must reach each receiver once: legacy durable messages per user (through any
 * one of that user's pollers), JSON durable events per poller of
 * /events, transient messages per connected client (STOMP, event stream; every client connected
 * for the whole run gets each message of its subscription). Receipts are counted per
 * (receiver, message).
 */
export class ReceiptLedger {
  readonly counts = newCounts();
  readonly latency = new Samples();
  private readonly received: Uint8Array;
  /** First receipts per receiver. */
  readonly perReceiver: Uint32Array;
  disconnects = 0;
  /** JSON events: an eventId not above the one before it that the poller had not seen yet. */
  outOfOrder = 0;

  /** Receiver r is a client of user r mod users (the users themselves when there are as many). */
  constructor(
    readonly posts: PostLog,
    readonly users: readonly SoakUser[],
    readonly receivers: number,
  ) {
    this.received = new Uint8Array((posts.max + 1) * receivers);
    this.perReceiver = new Uint32Array(receivers);
  }

  private user(receiver: number): SoakUser {
    return this.users[receiver % this.users.length] as SoakUser;
  }

  /** Counts a receipt; true when it is the first of that message by that receiver. */
  record(receiver: number, seq: number, at: number, matches: boolean): boolean {
    this.counts.deliveries++;
    if (!this.posts.known(seq) || !matches) {
      this.counts.corrupt++;
      return false;
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
    return seen === 0;
  }

  /** Accepted (receiver, message) pairs never received; `into` gets the first few. */
  missing(into?: Array<{ seq: number; user: string; target: string }>): number {
    let lost = 0;
    for (let seq = 1; seq <= this.posts.count; seq++) {
      if (!this.posts.ok[seq]) continue;
      const target = this.posts.target[seq] as string;
      for (let r = 0; r < this.receivers; r++) {
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
    const perUser = this.users.map((user) => this.posts.expectedFor(user));
    return Array.from({ length: this.receivers }, (_, r) => perUser[r % this.users.length] as number);
  }
}

/** The posts of each kind, and a ledger of the receipts of each transport. */
export function soakLedgers(
  maxPosts: number,
  users: Record<'legacy' | 'json', readonly SoakUser[]>,
  clients: SoakConfig['clients'],
) {
  const posts = Object.fromEntries(KINDS.map((k) => [k, new PostLog(maxPosts)])) as Record<
    MessageKind,
    PostLog
  >;
  return {
    posts,
    queue: new ReceiptLedger(posts.legacyDurable, users.legacy, users.legacy.length),
    events: new ReceiptLedger(posts.jsonDurable, users.json, clients.jsonPollers),
    stomp: new ReceiptLedger(posts.legacyNonDurable, users.legacy, clients.stomp),
    stream: new ReceiptLedger(posts.jsonTransient, users.json, clients.eventStream),
  };
}

export type Ledgers = ReturnType<typeof soakLedgers>;
