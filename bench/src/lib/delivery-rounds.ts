import type { Clients } from './delivery-clients';

interface RoundState {
  counts: Uint32Array;
  reached: number[];
  complete: number;
  onComplete: () => void;
}

/**
 * Connected clients that count, per message of a round, how many of them have it, and drive the
 * round: posts with at most `window` messages not yet delivered to every client (control-plane cost).
 */
export class DeliveryRounds {
  private state: RoundState | undefined;
  private failure: Error | undefined;

  constructor(private readonly clients: Clients) {}

  /** Connects the clients and waits until every one is ready for the first message. */
  async connect(): Promise<void> {
    await this.clients.connect(
      (i, n) => this.count(i, n),
      (why) => {
        // Deliveries outside a round are not counted, nor clients lost outside one.
        if (this.state) this.failure ??= new Error(why);
      },
    );
    await this.clients.ready();
  }

  /** Client i received `n` more messages of the current round (a page may carry several). */
  private count(i: number, n: number): void {
    const state = this.state;
    if (!state) return;
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
  round(ms: number, window: number): Promise<{ messages: number; messagesPerSecond: number }> {
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
        if (now >= end) {
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
          posted++;
          this.clients.post(posted).then(
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

  close(): void {
    this.state = undefined;
    this.clients.close();
  }
}
