import type { BenchContext } from '../context';
import { heapReading, startStoreSimulator, type HeapReading } from './store-simulator';
import { cpuMs, rssBytes } from './proc-stats';
import { seedStore, type Seeded } from './seed-http';

export interface MemoryReading extends HeapReading {
  readonly rss: number;
}

export interface SeededMemory {
  readonly events: number;
  readonly idle: MemoryReading;
  readonly full: MemoryReading;
  readonly seeded: Seeded;
}

/**
 * The JSON simulator as users run it (the CLI, its own process), idle and then filled with
 * `events` over POST /_sim/events; each reading after two full GCs inside it, RSS from /proc
 * and the heap from its GET /metrics.
 */
export async function seededMemory(ctx: BenchContext, events: number): Promise<SeededMemory> {
  const sim = await startStoreSimulator(ctx, events, { gcHook: true });
  const reading = async (): Promise<MemoryReading> => {
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

/** A store generated at start by `racedata-sim json --seed N`, against a start without it. */
export interface StartSeeded {
  readonly events: number;
  /** Extra wall time to the banner, and extra CPU time of the process by then (ms). */
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly rssPerEvent: number;
}

/** The `--seed N` path: what generating the store costs at start, from outside the process. */
export async function startSeededMemory(ctx: BenchContext, events: number): Promise<StartSeeded> {
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
