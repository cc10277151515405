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

/** Connected clients of one target that count, per message, how many clients have it. */
export class FanOutClients {
  private sockets: WebSocket[] = [];
  private state: RoundState | undefined;
  sample: Buffer | undefined;
  failure: Error | undefined;

  constructor(readonly target: FanOutTarget) {}

  async connect(): Promise<void> {
    this.sockets = await connectMany(this.target.clients, (i) => this.target.connect(i));
    const n = this.target.clients;
    this.sockets.forEach((ws, i) => {
      ws.on('message', (data: Buffer) => {
        const state = this.state;
        if (!state || (this.target.isDelivery && !this.target.isDelivery(data))) return;
        this.sample = data;
        const c = (state.counts[i] = (state.counts[i] as number) + 1);
        const r = (state.reached[c] ?? 0) + 1;
        state.reached[c] = r;
        if (r === n) {
          state.complete = c;
          state.onComplete();
        }
      });
      ws.on('close', () => {
        if (this.state) this.failure = new Error(`${this.target.name}: a client was disconnected`);
      });
    });
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
      const guard = setTimeout(() => fail(new Error(`${this.target.name}: deliveries stalled`)), ms + 30_000);
      const fail = (err: Error) => {
        if (finished) return;
        finished = true;
        clearTimeout(guard);
        this.state = undefined;
        reject(err);
      };
      const pump = () => {
        if (this.failure) return fail(this.failure);
        const now = performance.now();
        if (now >= end) {
          if (state.complete === posted) {
            finished = true;
            clearTimeout(guard);
            this.state = undefined;
            const seconds = (now - started) / 1000;
            resolve({
              messagesPerSecond: posted / seconds,
              deliveriesPerSecond: (posted * this.target.clients) / seconds,
            });
          }
          return;
        }
        while (posted - state.complete < window) {
          posted++;
          this.target.post(posted).then(
            (r) => r.status < 300 || fail(new Error(`${this.target.name}: HTTP ${r.status}`)),
            (err: Error) => fail(err),
          );
        }
      };
      const state: RoundState = {
        counts: new Uint32Array(this.target.clients),
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
    closeAll(this.sockets);
  }
}
