import type { BenchContext } from '../context';
import { heapReading, startStoreSimulator } from './store-simulator';
import { cpuMs, rssBytes } from './proc-stats';
import { seedStore } from './seed-http';

/**
 * The JSON simulator as users run it (the CLI, its own process), idle and then filled with
 * `events` over POST /_sim/events; each reading after two full GCs inside it, RSS from /proc
 * and the heap from its GET /metrics.
 */
export async function seededMemory(ctx: BenchContext, events: number) {
  const sim = await startStoreSimulator(ctx, events, { gcHook: true });
  const reading = async () => {
    await sim.collectGarbage();
    // RSS first: answering /metrics allocates a little.
    const rss = rssBytes(sim.pid);
    return { rss, ...(await heapReading(sim.port)) };
  };
  try {
    const idle = await reading();
    const seeded = await seedStore(sim, events);
    const full = await reading();
    return { events, idle, full, seeded };
  } finally {
    await sim.stop();
  }
}

export type SeededMemory = Awaited<ReturnType<typeof seededMemory>>;

/**
 * The `--seed N` path: what generating the store costs at start, from outside the process (a
 * store generated at start against a start without it: extra wall time to the banner, extra CPU
 * time of the process by then, in ms, and RSS per event).
 */
export async function startSeededMemory(ctx: BenchContext, events: number) {
  const start = async (args: string[]) => {
    const started = performance.now();
    const sim = await startStoreSimulator(ctx, events, { gcHook: true, args });
    try {
      const wallMs = performance.now() - started;
      const cpu = cpuMs(sim.pid);
      await sim.collectGarbage();
      return { wallMs, cpu, rss: rssBytes(sim.pid) };
    } finally {
      await sim.stop();
    }
  };
  const plain = await start([]);
  const seeded = await start(['--seed', String(events)]);
  return {
    events,
    wallMs: seeded.wallMs - plain.wallMs,
    cpuMs: seeded.cpu - plain.cpu,
    rssPerEvent: (seeded.rss - plain.rss) / events,
  };
}
