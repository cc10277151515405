import { httpRequest, sleep, type HttpResult } from '../harness/http';
import { forkWorker, type Worker } from '../harness/processes';
import { monoMs } from '../harness/proc';
import { Histogram } from '../harness/stats';
import { poster, type SetSpec } from './sets';

/** The longest wait for the posts' answers of an open-loop round. */
const ANSWER_CAP_MS = 10_000;

/** Client processes (client-worker.ts); each holds its share of every side's clients. */
export const clientProcesses = (count: number): Promise<Worker[]> =>
  Promise.all(Array.from({ length: count }, () => forkWorker('clients/client-worker.ts')));

interface Drained {
  readonly delivered: number;
  readonly lost: number;
  readonly lastReceive: number;
  readonly bins: ReadonlyArray<readonly [number, number]>;
  readonly sum: number;
  readonly cpuShare: number;
}

let sides = 0;

/**
 * One side of a delivery measure: a server's clients, spread over the client processes, and the
 * post that reaches them all, driven from the harness, which only posts and counts. A connection
 * carries one client's deliveries in the order the server sent them, and every message goes to
 * every client, so a client's n-th delivery of a round is the n-th message.
 */
export class ClientSide {
  private readonly name = `side-${++sides}`;
  private readonly post: (seq: number) => Promise<HttpResult>;
  /** The last message each client process says all its clients have (closed loop). */
  private readonly done: number[];
  private failure: Error | undefined;
  private wake: () => void = () => undefined;
  private seq = 0;

  private constructor(
    private readonly workers: readonly Worker[],
    readonly spec: SetSpec,
    body?: Buffer,
  ) {
    this.post = poster(spec, body);
    this.done = workers.map(() => 0);
    workers.forEach((w, k) =>
      w.listen((e) => {
        if (e.event !== this.name) return;
        if (typeof e.complete === 'number') this.done[k] = Math.max(this.done[k] as number, e.complete);
        else this.failure ??= new Error(`${spec.kind}: ${String(e.lost)}`);
        this.wake();
      }),
    );
  }

  /** Opens `spec.count` clients, shared out over the client processes (legacy listens: users in turn). */
  static async open(workers: readonly Worker[], spec: SetSpec, body?: Buffer): Promise<ClientSide> {
    const side = new ClientSide(workers, spec, body);
    const at = (k: number) => Math.floor((spec.count * k) / workers.length);
    await Promise.all(
      workers.map((w, k) =>
        w.call('open', { name: side.name, spec: { ...spec, count: at(k + 1) - at(k), first: at(k) } }),
      ),
    );
    return side;
  }

  private get complete(): number {
    return Math.min(...this.done);
  }

  private arm(capacity: number, notify: boolean) {
    this.done.fill(0);
    this.failure = undefined;
    return Promise.all(this.workers.map((w) => w.call('arm', { name: this.name, capacity, notify })));
  }

  private async drain(expected: number, sent: Float64Array) {
    const drained = await Promise.all(
      this.workers.map((w) => w.call<Drained>('drain', { name: this.name, expected, sent })),
    );
    const latency = new Histogram();
    for (const d of drained) latency.merge(d.bins, d.sum);
    return { drained, latency };
  }

  /** What the first client received last (a bare baseline is posted these exact bytes). */
  async sample(): Promise<Buffer> {
    const bytes = await this.workers[0]?.call<Uint8Array | undefined>('sample', { name: this.name });
    if (!bytes) throw new Error(`${this.spec.kind}: nothing received`);
    return Buffer.from(bytes);
  }

  /**
   * Resolves once every client waits for the next message: long polls held by the server, as its
   * GET /_sim/state counts them (the bare baseline answers it alike); with the control plane off,
   * requests sent stand in for polls held.
   */
  async ready(): Promise<void> {
    if (!this.spec.kind.endsWith('polls') && this.spec.kind !== 'legacy-listens') return;
    for (const deadline = Date.now() + 20_000; ; await sleep(1)) {
      const state = await httpRequest({ port: this.spec.port, path: '/_sim/state' });
      const users =
        state.status === 200 ? (JSON.parse(state.body.toString('utf8')) as UsersState).users : undefined;
      const held = users
        ? Object.values(users).reduce((n, u) => n + u.heldPolls, 0)
        : (await Promise.all(this.workers.map((w) => w.call<number>('waiting', { name: this.name })))).reduce(
            (a, b) => a + b,
          );
      if (held >= this.spec.count) return;
      if (Date.now() > deadline)
        throw new Error(`${this.spec.kind}: ${held} of ${this.spec.count} polls held after 20 s`);
    }
  }

  /** Until `done` holds (woken by each completion), failing on a lost client or after `ms`. */
  private until(done: () => boolean, ms: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => finish(new Error(`${this.spec.kind}: deliveries stalled`)), ms);
      const finish = (err?: Error) => {
        clearTimeout(timer);
        this.wake = () => undefined;
        if (err) reject(err);
        else resolve();
      };
      this.wake = () => (this.failure ? finish(this.failure) : done() && finish());
      this.wake();
    });
  }

  private send(seq: number): void {
    this.post(seq).then(
      (r) => void (r.status >= 300 && (this.failure ??= new Error(`${this.spec.kind}: HTTP ${r.status}`))),
      (err: Error) => void (this.failure ??= err),
    );
  }

  /** Posts message `seq` once every client is ready for it; the latency of each of its deliveries. */
  async deliverOne(): Promise<Histogram> {
    await this.ready();
    await this.arm(1, true);
    const sent = Float64Array.of(monoMs());
    this.send(++this.seq);
    await this.until(() => this.complete >= 1, 30_000);
    return (await this.drain(1, sent)).latency;
  }

  /**
   * Posts messages for `ms`, keeping at most `window` not yet delivered to every client, then
   * waits for the last to arrive everywhere. Rate = messages / (last full delivery - start).
   */
  async closedLoop(ms: number, window: number): Promise<{ messages: number; messagesPerSecond: number }> {
    await this.arm(0, true);
    const started = monoMs();
    let posted = 0;
    await this.until(() => {
      while (monoMs() < started + ms && posted - this.complete < window) {
        posted++;
        this.send(++this.seq);
      }
      return posted > 0 && monoMs() >= started + ms && this.complete >= posted;
    }, ms + 30_000);
    const seconds = (monoMs() - started) / 1000;
    await this.drain(0, new Float64Array(0));
    return { messages: posted, messagesPerSecond: posted / seconds };
  }

  /**
   * Open loop: posts `rate` messages per second for `ms` on a fixed schedule (message k is due at
   * t0 + k / rate) that never waits for answers or deliveries, so a server that falls behind
   * shows as latency and a lower delivered rate; then waits until every client has them all.
   * Latency runs from the moment each post was issued; the posts' lateness is reported apart.
   */
  async openLoop(rate: number, ms: number) {
    const messages = Math.max(1, Math.round((rate * ms) / 1000));
    const interval = 1000 / rate;
    await this.arm(messages, false);
    const cpuBefore = process.cpuUsage();
    const t0 = monoMs() + interval;
    const sent = new Float64Array(messages);
    let lagSum = 0;
    let failedPosts = messages;
    const answers: Promise<void>[] = [];
    for (let k = 0; k < messages; k++) {
      const wait = t0 + k * interval - monoMs();
      if (wait > 0) await sleep(wait);
      sent[k] = monoMs();
      lagSum += (sent[k] as number) - (t0 + k * interval);
      answers.push(
        this.post(++this.seq).then(
          (r) => void (r.status < 300 && failedPosts--),
          () => undefined,
        ),
      );
    }
    // A post still unanswered after the cap has failed, whatever comes of it later.
    await Promise.race([Promise.all(answers), sleep(ANSWER_CAP_MS)]);
    const { drained, latency } = await this.drain(messages, sent);
    const cpu = process.cpuUsage(cpuBefore);
    if (this.failure) throw this.failure;
    const lastReceive = Math.max(t0, ...drained.map((d) => d.lastReceive));
    return {
      messages,
      deliveries: latency.count,
      /** Deliveries that did not arrive (none for 3 s, or 10 s after the posts' answers). */
      lost: drained.reduce((n, d) => n + d.lost, 0),
      failedPosts,
      /**
       * Messages per second that reached the clients: deliveries per client over the time from the
       * first post's due time to the last delivery plus one posting interval, so a server that
       * delivers at once scores exactly the offered rate and one that falls behind scores less.
       */
      deliveredPerSecond: latency.count / this.spec.count / ((lastReceive - t0 + interval) / 1000),
      latency,
      /** Mean of actual - due time of the posts (ms): whether the poster kept its schedule. */
      postLagMs: lagSum / messages,
      /** The busiest client process's CPU, and the harness's (the poster), as shares of one core. */
      clientsCpuShare: Math.max(...drained.map((d) => d.cpuShare)),
      harnessCpuShare: (cpu.user + cpu.system) / 1000 / (monoMs() - t0 + interval),
    };
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.call('close', { name: this.name }).catch(() => undefined)));
  }
}

interface UsersState {
  readonly users: Record<string, { readonly heldPolls: number }>;
}

export type OpenLoopRound = Awaited<ReturnType<ClientSide['openLoop']>>;
