import type { Clients } from './delivery-clients';
import { sleep } from './http-client';

/** One side's run of an open-loop fan-out round, as the clients saw it. */
export type OpenLoopRound = Awaited<ReturnType<OpenLoopClients['round']>>;

/** How long deliveries may stop arriving before the missing ones count as lost. */
const STALL_MS = 3000;
/**
 * The longest wait for the posts' answers, and then for the last deliveries: a side far behind the offered rate has already failed
 * to keep up, and waiting out its whole backlog would stretch the measure without bound.
 */
const DRAIN_CAP_MS = 10_000;

/**
 * Connected clients of one target, driven open loop: messages are posted on a fixed schedule
 * (message k is due at t0 + k / rate) that never waits for deliveries, so a server that falls
 * behind shows as latency and a lower delivered rate rather than as a slower posting rate.
 *
 * Each client records the receive time of every delivery. A WebSocket connection carries one
 * client's frames in the order the server sent them, and the server sends every message to
 * every client, so a client's n-th delivery of a round is the n-th message; two posts that
 * overtake each other on the posting connections only swap neighbouring latencies. Latency runs
 * from the moment the post was issued, not from its due time: the harness's own lateness (it
 * receives every delivery) is reported apart, as postLagMs, rather than charged to a server.
 */
export class OpenLoopClients {
  private times = new Float64Array(0);
  private counts = new Uint32Array(0);
  private capacity = 0;
  private recording = false;
  private received = 0;
  private lastReceive = 0;
  private disconnected = 0;
  private seq = 0;
  /** A frame client 0 received (the bare baseline is posted these exact bytes). */
  sample: Buffer | undefined;

  constructor(readonly target: Clients) {}

  connect(): Promise<void> {
    // Kept to a time stamp (taken on arrival) and two stores: the harness receives every delivery of both sides.
    return this.target.connect(
      (i, _n, at, data) => {
        if (!this.recording) return;
        const n = this.counts[i] as number;
        if (n < this.capacity) this.times[i * this.capacity + n] = at;
        this.counts[i] = n + 1;
        this.received++;
        this.lastReceive = at;
        if (i === 0) this.sample = data;
      },
      () => this.disconnected++,
    );
  }

  /** Posts `rate` messages per second for `ms`, then waits until every client has them all. */
  async round(rate: number, ms: number) {
    const clients = this.target.count;
    const messages = Math.max(1, Math.round((rate * ms) / 1000));
    const interval = 1000 / rate;
    this.capacity = messages;
    this.times = new Float64Array(clients * messages);
    this.counts = new Uint32Array(clients);
    this.received = 0;
    this.recording = true;
    const cpuBefore = process.cpuUsage();
    const t0 = performance.now() + interval;
    this.lastReceive = t0;
    const expected = messages * clients;
    const sent = new Float64Array(messages);
    let lagSum = 0;
    let failedPosts = 0;
    let answered = 0;
    const answers: Promise<void>[] = [];
    for (let k = 0; k < messages; k++) {
      const due = t0 + k * interval;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      sent[k] = performance.now();
      lagSum += (sent[k] as number) - due;
      // Not awaited: the schedule never waits for a post's answer or its deliveries.
      answers.push(
        this.target.post(++this.seq).then(
          (r) => {
            answered++;
            if (r.status >= 300) failedPosts++;
          },
          () => {
            answered++;
            failedPosts++;
          },
        ),
      );
    }
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(answers),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, DRAIN_CAP_MS))),
    ]);
    clearTimeout(timer);
    // A post still unanswered by now has failed, whatever comes of it later.
    failedPosts += messages - answered;
    // Drain: wait for every delivery, or until none has arrived for STALL_MS.
    let seen = -1;
    let quietSince = performance.now();
    const drainEnd = quietSince + DRAIN_CAP_MS;
    while (this.received < expected && this.disconnected === 0 && performance.now() < drainEnd) {
      if (this.received !== seen) {
        seen = this.received;
        quietSince = performance.now();
      } else if (performance.now() - quietSince > STALL_MS) {
        break;
      }
      await sleep(10);
    }
    this.recording = false;
    const cpu = process.cpuUsage(cpuBefore);
    const wallMs = performance.now() - t0 + interval;
    if (this.disconnected > 0)
      throw new Error(`${this.target.name}: ${this.disconnected} clients disconnected`);
    const latencies = new Float64Array(Math.min(this.received, expected));
    let d = 0;
    for (let i = 0; i < clients; i++) {
      const n = Math.min(this.counts[i] as number, messages);
      for (let k = 0; k < n; k++)
        latencies[d++] = (this.times[i * messages + k] as number) - (sent[k] as number);
    }
    const deliveries = d;
    return {
      /** Messages posted (each due to reach every client), and deliveries the clients counted. */
      messages,
      deliveries,
      /** Deliveries that did not arrive (none for STALL_MS, or DRAIN_CAP_MS after the posts' answers). */
      lost: expected - deliveries,
      /** Posts answered with an error status or not answered at all. */
      failedPosts,
      /**
       * Messages per second that reached the clients: deliveries per client over the time from the
       * first post's due time to the last delivery plus one posting interval, so a server that
       * delivers at once scores exactly the offered rate and one that falls behind scores less.
       */
      deliveredPerSecond: deliveries / clients / ((this.lastReceive - t0 + interval) / 1000),
      /** Receive time - post time of the message, in ms, one per delivery (unsorted). */
      latencies: latencies.subarray(0, deliveries),
      /** Mean of actual - due time of the posts (ms): whether the load generator kept its schedule. */
      postLagMs: lagSum / messages,
      /** The harness's own CPU over the round, as a share of one core (it runs every client). */
      harnessCpuShare: (cpu.user + cpu.system) / 1000 / wallMs,
    };
  }

  close(): void {
    this.recording = false;
    this.target.close();
  }
}
