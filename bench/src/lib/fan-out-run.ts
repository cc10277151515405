import type WebSocket from 'ws';
import type { HttpResult } from './http-client';
import { closeAll, connectMany } from './ws-clients';

export interface FanOutTarget {
  readonly name: string;
  readonly clients: number;
  connect(i: number): Promise<WebSocket>;
  post(seq: number): Promise<HttpResult>;
  /** Frames that carry a delivery (STOMP: MESSAGE). */
  isDelivery?(data: Buffer): boolean;
}

export interface FanOutRound {
  /** Messages posted in the round, each delivered to every client. */
  readonly messages: number;
  /** Messages delivered to every client per second. */
  readonly messagesPerSecond: number;
  readonly deliveriesPerSecond: number;
}

interface RoundState {
  counts: Uint32Array;
  reached: number[];
  complete: number;
  onComplete: () => void;
}

/**
 * Counts, per message of a round, how many clients have it, and drives the round: posts with at
 * most `window` messages not yet delivered to every client. Shared by the WebSocket clients below
 * and the long-poll clients of poll-fan-out.ts.
 */
export class DeliveryRounds {
  private state: RoundState | undefined;
  failure: Error | undefined;

  constructor(
    private readonly name: string,
    private readonly clients: number,
    private readonly post: (seq: number) => Promise<HttpResult>,
  ) {}

  /** True while a round runs (deliveries outside a round are not counted). */
  get running(): boolean {
    return this.state !== undefined;
  }

  /** Client i received `n` more messages of the current round (a page may carry several). */
  count(i: number, n = 1): void {
    const state = this.state;
    if (!state) return;
    const before = state.counts[i] as number;
    state.counts[i] = before + n;
    let advanced = false;
    for (let c = before + 1; c <= before + n; c++) {
      const r = (state.reached[c] ?? 0) + 1;
      state.reached[c] = r;
      if (r === this.clients) {
        state.complete = c;
        advanced = true;
      }
    }
    if (advanced) state.onComplete();
  }

  /** A client was lost mid-round: the round fails rather than stalls. */
  lost(): void {
    if (this.state) this.failure = new Error(`${this.name}: a client was disconnected`);
  }

  /**
   * Posts messages for `ms`, keeping at most `window` not yet delivered to every client, then
   * waits for the last to arrive everywhere. Rate = messages / (last full delivery - start).
   */
  round(ms: number, window: number): Promise<FanOutRound> {
    return new Promise((resolve, reject) => {
      let posted = 0;
      let finished = false;
      const started = performance.now();
      const end = started + ms;
      const guard = setTimeout(() => fail(new Error(`${this.name}: deliveries stalled`)), ms + 30_000);
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
            resolve({
              messages: posted,
              messagesPerSecond: posted / seconds,
              deliveriesPerSecond: (posted * this.clients) / seconds,
            });
          }
          return;
        }
        while (posted - state.complete < window) {
          posted++;
          this.post(posted).then(
            (r) => r.status < 300 || fail(new Error(`${this.name}: HTTP ${r.status}`)),
            (err: Error) => fail(err),
          );
        }
      };
      const state: RoundState = {
        counts: new Uint32Array(this.clients),
        reached: [],
        complete: 0,
        onComplete: pump,
      };
      this.state = state;
      pump();
    });
  }

  stop(): void {
    this.state = undefined;
  }
}

/** Connected clients of one target that count, per message, how many clients have it. */
export class FanOutClients {
  private sockets: WebSocket[] = [];
  private readonly rounds: DeliveryRounds;
  sample: Buffer | undefined;

  constructor(readonly target: FanOutTarget) {
    this.rounds = new DeliveryRounds(target.name, target.clients, (seq) => target.post(seq));
  }

  async connect(): Promise<void> {
    this.sockets = await connectMany(this.target.clients, (i) => this.target.connect(i));
    this.sockets.forEach((ws, i) => {
      ws.on('message', (data: Buffer) => {
        if (!this.rounds.running || (this.target.isDelivery && !this.target.isDelivery(data))) return;
        this.sample = data;
        this.rounds.count(i);
      });
      ws.on('close', () => this.rounds.lost());
    });
  }

  /** See DeliveryRounds.round. */
  round(ms: number, window: number): Promise<FanOutRound> {
    return this.rounds.round(ms, window);
  }

  close(): void {
    this.rounds.stop();
    closeAll(this.sockets);
  }
}
