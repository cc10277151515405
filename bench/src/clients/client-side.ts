import { sleep, type HttpResult } from '../harness/http';
import { simState } from '../harness/store';
import { forkWorker, monoMs, type Server, type Worker } from '../harness/processes';
import { onSchedule } from '../harness/schedule';
import { sorted } from '../harness/rows';
import type { BenchContext } from '../types';
import type { commands } from './client-worker';
import { poster, type ClientKind, type SetSpec } from './sets';

interface SidesSpec {
  /** The side measured and its baseline: our simulator and the bare one, or ours with a switch on and off. */
  readonly servers: readonly [() => Promise<Server>, () => Promise<Server>];
  /** Each side's clients; the baseline's are posted the bytes the first side's received. */
  readonly clients: readonly [ClientKind, ClientKind];
  readonly count: number;
  readonly tokens?: readonly string[];
}

/**
 * A delivery measure's two sides (latency, fan-out, a switch's cost), each server in its own
 * process, and `count` clients of each in the client processes; `warm` runs on each side as it
 * opens, `use` on both, and everything stops after it.
 */
export async function withSides<T>(
  ctx: BenchContext,
  { servers: start, clients: [kind, baseline], ...spec }: SidesSpec,
  warm: (side: ClientSide) => Promise<unknown>,
  use: (sides: { ours: ClientSide; bare: ClientSide }, pids: { ours: number; bare: number }) => Promise<T>,
): Promise<T> {
  const servers: Server[] = [];
  let workers: Worker[] = [];
  try {
    servers.push(...(await Promise.all(start.map((server) => server()))));
    const [sim, bare] = servers as [Server, Server];
    // Each client process (client-worker.ts) holds its share of every side's clients.
    const fork = () => forkWorker('clients/client-worker.ts');
    workers = await Promise.all(Array.from({ length: ctx.config.clientProcesses }, fork));
    const ours = await ClientSide.open(workers, { ...spec, kind, port: sim.port });
    await warm(ours);
    // A bare baseline is posted the bytes our clients received.
    const body = baseline.startsWith('bare') ? await ours.sample() : undefined;
    const theirs = await ClientSide.open(workers, { ...spec, kind: baseline, port: bare.port }, body);
    await warm(theirs);
    return await use({ ours, bare: theirs }, { ours: sim.pid, bare: bare.pid });
  } finally {
    await Promise.all([...servers.map((s) => s.stop()), ...workers.map((w) => w.close())]);
  }
}

type Drained = Awaited<ReturnType<(typeof commands)['drain']>>;

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
  private wake = () => {};
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
        if (typeof e.complete === 'number') this.done[k] = e.complete;
        else this.failure ??= new Error(`${spec.kind}: ${String(e.lost)}`);
        this.wake();
      }),
    );
  }

  /** Opens `spec.count` clients, shared out over the client processes, each with its token. */
  static async open(workers: readonly Worker[], spec: SetSpec, body?: Buffer): Promise<ClientSide> {
    const side = new ClientSide(workers, spec, body);
    const at = (k: number) => Math.floor((spec.count * k) / workers.length);
    const tokens = (k: number) => spec.tokens?.slice(at(k), at(k + 1));
    const share = (k: number) => ({ ...spec, count: at(k + 1) - at(k), tokens: tokens(k) });
    await Promise.all(workers.map((w, k) => w.call('open', { name: side.name, spec: share(k) })));
    return side;
  }

  private complete = () => Math.min(...this.done);

  private all<T>(cmd: string, args: object = {}): Promise<T[]> {
    return Promise.all(this.workers.map((w) => w.call<T>(cmd, { name: this.name, ...args })));
  }

  private async drain(expected: number, sent: Float64Array) {
    const drained = await this.all<Drained>('drain', { expected, sent });
    return { drained, latency: sorted(drained.map((d) => d.latencies)) };
  }

  /** What the first client received last (a bare baseline is posted these exact bytes). */
  async sample(): Promise<Buffer> {
    const [bytes] = await this.all<Uint8Array | undefined>('sample');
    if (!bytes) throw new Error(`${this.spec.kind}: nothing received`);
    return Buffer.from(bytes);
  }

  /**
   * Resolves once every client waits for the next message: long polls held by the server, as its
   * GET /_sim/state counts them (the bare baseline answers it alike); with the control plane off,
   * requests sent stand in for polls held.
   */
  async ready(): Promise<void> {
    if (!/polls|listens/.test(this.spec.kind)) return;
    for (const deadline = Date.now() + 20_000; ; await sleep(1)) {
      const users = (await simState(this.spec.port).catch(() => undefined))?.users;
      const counts = users ? Object.values(users).map((u) => u.heldPolls) : await this.all<number>('waiting');
      const held = counts.reduce((a, b) => a + b, 0);
      if (held >= this.spec.count) return;
      if (Date.now() > deadline)
        throw new Error(`${this.spec.kind}: ${held} of ${this.spec.count} polls held after 20 s`);
    }
  }

  /** Until `done` holds (checked at each completion), failing on a lost client or after `ms`. */
  private until(done: () => boolean, ms: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => finish(new Error(`${this.spec.kind}: deliveries stalled`)), ms);
      const finish = (err?: Error) => {
        clearTimeout(timer);
        this.wake = () => {};
        return err ? reject(err) : resolve();
      };
      this.wake = () => (this.failure ? finish(this.failure) : done() && finish());
      this.wake();
    });
  }

  private send(): void {
    const failed = (why: string | Error) => (this.failure ??= why instanceof Error ? why : new Error(why));
    const refused = (r: HttpResult) => r.status >= 300 && failed(`${this.spec.kind}: HTTP ${r.status}`);
    this.post(++this.seq).then(refused, failed);
  }

  /** Posts one message once every client is ready for it; the latency of each of its deliveries. */
  async deliverOne(): Promise<Float64Array> {
    await this.ready();
    await this.all('arm', { capacity: 1, notify: true }).then(() => this.done.fill(0));
    const sent = Float64Array.of(monoMs());
    this.send();
    await this.until(() => this.complete() >= 1, 30_000);
    return (await this.drain(1, sent)).latency;
  }

  /**
   * Posts messages for `ms`, keeping at most `window` not yet delivered to every client, then
   * waits for the last to arrive everywhere. Rate = messages / (last full delivery - start).
   */
  async closedLoop(ms: number, window: number): Promise<{ messages: number; messagesPerSecond: number }> {
    await this.all('arm', { capacity: 0, notify: true }).then(() => this.done.fill(0));
    const started = monoMs();
    let posted = 0;
    await this.until(() => {
      for (; monoMs() < started + ms && posted - this.complete() < window; posted++) this.send();
      return posted > 0 && monoMs() >= started + ms && this.complete() >= posted;
    }, ms + 30_000);
    const messagesPerSecond = (posted * 1000) / (monoMs() - started);
    await this.drain(0, new Float64Array(0));
    return { messages: posted, messagesPerSecond };
  }

  /**
   * Open loop (harness/schedule.ts): posts `rate` messages per second for `ms`, then waits until
   * every client has them all. Latency runs from the moment each post was issued; the posts'
   * lateness on their schedule is reported apart.
   */
  async openLoop(rate: number, ms: number) {
    const messages = Math.max(1, Math.round((rate * ms) / 1000));
    await this.all('arm', { capacity: messages, notify: false });
    const cpuBefore = process.cpuUsage();
    const sent = new Float64Array(messages);
    let failedPosts = messages;
    const answers: Promise<void>[] = [];
    const { t0, interval, lagMs } = await onSchedule(rate, messages, (k) => {
      sent[k] = monoMs();
      const ok = (r: HttpResult) => void (r.status < 300 && failedPosts--);
      answers.push(this.post(++this.seq).then(ok, () => undefined));
    });
    // A post still unanswered after 10 s has failed, whatever comes of it later.
    await Promise.race([Promise.all(answers), sleep(10_000)]);
    const { drained, latency } = await this.drain(messages, sent);
    const cpu = process.cpuUsage(cpuBefore);
    if (this.failure) throw this.failure;
    const lastReceive = Math.max(t0, ...drained.map((d) => d.lastReceive));
    return {
      ...{ messages, deliveries: latency.length, lost: drained.reduce((n, d) => n + d.lost, 0), failedPosts },
      /**
       * Deliveries per client over the time from the first post's due time to the last delivery
       * plus one posting interval: a server that delivers at once scores the offered rate.
       */
      deliveredPerSecond: latency.length / this.spec.count / ((lastReceive - t0 + interval) / 1000),
      ...{ latency, postLagMs: lagMs },
      /** The busiest client process's CPU, and the harness's (the poster), as shares of one core. */
      clientsCpuShare: Math.max(...drained.map((d) => d.cpuShare)),
      harnessCpuShare: (cpu.user + cpu.system) / 1000 / (monoMs() - t0 + interval),
    };
  }
}

export type OpenLoopRound = Awaited<ReturnType<ClientSide['openLoop']>>;
