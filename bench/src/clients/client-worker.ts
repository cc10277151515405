import http from 'node:http';
import { httpRequest, sleep } from '../harness/http';
import { monoMs } from '../harness/processes';
import type { ProbeResult } from '../harness/watch';
import { openSet, type ClientSet, type SetSpec } from './sets';

/**
 * A client process of the delivery measures (client-side.ts): it holds its share of each side's
 * clients, stamps every delivery on arrival (CLOCK_MONOTONIC, which the harness stamps its posts
 * with), says when each message has reached all of them (closed loop), and hands the harness
 * counts and latencies (numbers), never the deliveries themselves, so the load generator is not
 * what limits the server it measures. It is also the /health prober of the soak and the abuse
 * run (harness/watch.ts), out of the way of their load's busy event loop.
 */

/** How long deliveries may stop arriving before the missing ones count as lost. */
const STALL_MS = 3000;
/** The longest wait for a round's last deliveries: a side that far behind has already failed to keep up. */
const DRAIN_CAP_MS = 10_000;

/** One side's clients and what the current round recorded of them. */
const newSide = (name: string, set: ClientSet) => ({
  ...{ name, set, recording: false, received: 0, lastReceive: 0, cpu: process.cpuUsage(), started: 0 },
  /** Arrival times, client-major, of the first `capacity` messages of the round. */
  ...{ times: new Float64Array(0), capacity: 0, counts: new Uint32Array(0) },
  /** Clients that have message k (closed loop), and whether to say so. */
  ...{ reached: [] as number[], notify: false },
  /** What the first client last received (a bare baseline is posted these exact bytes). */
  sample: undefined as Buffer | undefined,
});
type Side = ReturnType<typeof newSide>;

const sides = new Map<string, Side>();
const probes: { results: ProbeResult; timer?: NodeJS.Timeout } = { results: {} };

function onDelivery(s: Side, i: number, n: number, at: number, body: Buffer): void {
  if (i === 0) s.sample = body;
  if (!s.recording) return;
  const before = s.counts[i] as number;
  s.counts[i] = before + n;
  s.received += n;
  s.lastReceive = at;
  for (let k = before; k < Math.min(before + n, s.capacity); k++) s.times[i * s.capacity + k] = at;
  if (!s.notify) return;
  for (let c = before + 1; c <= before + n; c++) {
    const r = (s.reached[c] ?? 0) + 1;
    s.reached[c] = r;
    if (r === s.set.count) process.send?.({ event: s.name, complete: c });
  }
}

/** The commands the harness sends (client-side.ts, harness/watch.ts). */
export const commands = {
  async open({ name, spec }: { name: string; spec: SetSpec }) {
    const s = newSide(name, openSet(spec));
    sides.set(name, s);
    await s.set.connect(
      (i, n, at, body) => onDelivery(s, i, n, at, body),
      (why) => process.send?.({ event: name, lost: why }),
    );
    return spec.count;
  },
  sample: ({ name }: { name: string }) => sides.get(name)?.sample,
  waiting: ({ name }: { name: string }) => sides.get(name)?.set.waiting() ?? 0,
  /** Counts from here on: the arrival times of the first `capacity` messages, completions if `notify`. */
  arm({ name, capacity, notify }: { name: string; capacity: number; notify: boolean }) {
    const s = sides.get(name) as Side;
    const clients = s.set.count;
    Object.assign(s, { capacity, notify, reached: [], received: 0, recording: true, started: monoMs() });
    Object.assign(s, { times: new Float64Array(clients * capacity), counts: new Uint32Array(clients) });
    s.cpu = process.cpuUsage();
    return true;
  },
  /**
   * Waits for `expected` deliveries a client (or until none came for STALL_MS), stops counting,
   * and hands over the figures.
   */
  async drain({ name, expected, sent }: { name: string; expected: number; sent: Float64Array }) {
    const s = sides.get(name) as Side;
    const total = expected * s.set.count;
    let [seen, quietSince] = [-1, monoMs()];
    const end = quietSince + DRAIN_CAP_MS;
    while (s.received < total && monoMs() < end) {
      if (s.received !== seen) [seen, quietSince] = [s.received, monoMs()];
      else if (monoMs() - quietSince > STALL_MS) break;
      await sleep(10);
    }
    s.recording = false;
    // Latency of message k = its arrival - sent[k], every delivery of every client.
    const latencies: number[] = [];
    for (let i = 0; i < s.set.count; i++) {
      const n = Math.min(s.counts[i] as number, sent.length, s.capacity);
      for (let k = 0; k < n; k++)
        latencies.push((s.times[i * s.capacity + k] as number) - (sent[k] as number));
    }
    const cpu = process.cpuUsage(s.cpu);
    const delivered = s.counts.reduce((sum, c) => sum + Math.min(c, expected), 0);
    return {
      ...{ delivered, lost: total - delivered, lastReceive: s.lastReceive },
      latencies: Float64Array.from(latencies),
      /** This process's CPU over the round, as a share of one core. */
      cpuShare: (cpu.user + cpu.system) / 1000 / Math.max(1, monoMs() - s.started),
    };
  },
  /** GET /health on each target every `everyMs`, timed from sending until the answer is read. */
  probe({ targets, everyMs }: { targets: Array<{ name: string; port: number }>; everyMs: number }) {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
    for (const { name } of targets) probes.results[name] = { samples: [], sentAt: [], failed: 0 };
    probes.timer = setInterval(() => {
      for (const { name, port } of targets) {
        const [p, sent, wall] = [probes.results[name] as ProbeResult[string], performance.now(), Date.now()];
        const answered = (status: number) => {
          if (status !== 200) return void p.failed++;
          p.samples.push(performance.now() - sent);
          p.sentAt.push(wall);
        };
        const probe = httpRequest({ port, path: '/health', agent, timeoutMs: 10_000 });
        void probe.catch(() => ({ status: 0 })).then((res) => answered(res.status));
      }
    }, everyMs);
    return true;
  },
  probed() {
    clearInterval(probes.timer);
    return probes.results;
  },
};

// Commands in, replies out, over IPC (harness/processes.ts forkWorker); the harness went away
// (done, crashed, Ctrl-C): never outlive it.
const send = (message: unknown) => process.send?.(message);
process.on('message', (m: { id: number; cmd: keyof typeof commands; args: never }) => {
  Promise.resolve()
    .then(() => {
      if (!(m.cmd in commands)) throw new Error(`unknown command ${m.cmd}`);
      return (commands[m.cmd] as (args: never) => unknown)(m.args);
    })
    .then(
      (result) => send({ id: m.id, ok: true, result }),
      (err: unknown) => send({ id: m.id, ok: false, error: String((err as Error)?.stack ?? err) }),
    );
});
process.on('disconnect', () => process.exit(0));
send({ event: 'ready' });
