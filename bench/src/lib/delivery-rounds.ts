import type { Clients } from './delivery-clients';
import type { Samples } from './stats';

interface RoundState {
  counts: Uint32Array;
  reached: number[];
  complete: number;
  onComplete: () => void;
}

/**
 * Connected clients that count, per message of a round, how many of them have it, and drive the
 * round: posts with at most `window` messages not yet delivered to every client (control-plane
 * cost), or one message at a time, each timed to every client (delivery latency).
 */
export class DeliveryRounds {
  private state: RoundState | undefined;
  private failure: Error | undefined;
  /** Where each delivery's time since its post was issued goes (deliverOne). */
  private samples: Samples | undefined;
  private postedAt = 0;
  /** A response or frame as the clients received it (the bare baseline is posted the same bytes). */
  sample: Buffer | undefined;

  constructor(private readonly clients: Clients) {}

  /** Connects the clients and waits until every one is ready for the first message. */
  async connect(): Promise<void> {
    await this.clients.connect(
      (i, n, at, body) => {
        this.sample = body;
        if (!this.state) return;
        for (let k = 0; k < n; k++) this.samples?.push(at - this.postedAt);
        this.count(this.state, i, n);
      },
      (why) => {
        // Deliveries outside a round are not counted, nor clients lost outside one.
        if (this.state) this.failure ??= new Error(why);
      },
    );
    await this.clients.ready();
  }

  /** Client i received `n` more messages of the current round (a page may carry several). */
  private count(state: RoundState, i: number, n: number): void {
    const before = state.counts[i] as number;
    state.counts[i] = before + n;
    let advanced = false;
    for (let c = before + 1; c <= before + n; c++) {
      const r = (state.reached[c] ?? 0) + 1;
      state.reached[c] = r;
      if (r === this.clients.count) {
        state.complete = c;
        advanced = true;
      }
    }
    if (advanced) state.onComplete();
  }

  /**
   * Posts messages for `ms`, keeping at most `window` not yet delivered to every client, then
   * waits for the last to arrive everywhere. Rate = messages / (last full delivery - start).
   */
  round(ms: number, window: number, firstSeq = 1): Promise<{ messages: number; messagesPerSecond: number }> {
    return new Promise((resolve, reject) => {
      let posted = 0;
      let finished = false;
      const started = performance.now();
      const end = started + ms;
      const name = this.clients.name;
      const guard = setTimeout(() => fail(new Error(`${name}: deliveries stalled`)), ms + 30_000);
      const fail = (err: Error) => {
        if (finished) return;
        finished = true;
        clearTimeout(guard);
        this.state = undefined;
        reject(err);
      };
      const pump = () => {
        if (finished) return;
        if (this.failure) return fail(this.failure);
        const now = performance.now();
        if (now >= end && posted > 0) {
          if (state.complete === posted) {
            finished = true;
            clearTimeout(guard);
            this.state = undefined;
            const seconds = (now - started) / 1000;
            resolve({ messages: posted, messagesPerSecond: posted / seconds });
          }
          return;
        }
        while (posted - state.complete < window) {
          this.postedAt = performance.now();
          this.clients.post(firstSeq + posted++).then(
            (r) => r.status < 300 || fail(new Error(`${name}: HTTP ${r.status}`)),
            (err: Error) => fail(err),
          );
        }
      };
      const state: RoundState = {
        counts: new Uint32Array(this.clients.count),
        reached: [],
        complete: 0,
        onComplete: pump,
      };
      this.state = state;
      pump();
    });
  }

  /**
   * Posts message `seq` once every client is ready for it (long polls: held again) and resolves
   * once every client has it; each delivery's time since the post was issued goes into `samples`.
   */
  async deliverOne(seq: number, samples?: Samples): Promise<void> {
    await this.clients.ready();
    this.samples = samples;
    try {
      await this.round(0, 1, seq);
    } finally {
      this.samples = undefined;
    }
  }

  close(): void {
    this.state = undefined;
    this.clients.close();
  }
}
