import type { JsonSimulatorProbe } from '@racedata/json-sim';
import type { SimulatorSettings } from '@racedata/core';
import { exitSoon, measuredMemory, serveIpc } from '../lib/child-ipc';
import { layoutDays, storedEvent } from '../lib/payloads';
import { simPackage } from './sim-packages';

/** The JSON simulator under test, in its own process; BENCH_SETTINGS overrides settings. */
async function main(): Promise<void> {
  const { createJsonSimulator } = await simPackage('json-sim', () => import('@racedata/json-sim'));
  const overrides = JSON.parse(process.env.BENCH_SETTINGS ?? '{}') as Partial<SimulatorSettings>;
  let probe: JsonSimulatorProbe | undefined;
  const sim = createJsonSimulator(
    {
      host: '127.0.0.1',
      port: 0,
      logLevel: 'silent',
      // Nothing may time out during a run: polls are held and sockets idle for minutes.
      longPollTimeoutMs: 600_000,
      wsAuthTimeoutMs: 600_000,
      wsPingIntervalMs: 3_600_000,
      // Every bench client is the same user: up to 1,000 event-stream or STOMP sessions at once.
      wsMaxSessionsPerUser: 100_000,
      // The memory measures store up to 1,000,000 events by count; the byte budget must not cut in.
      eventStoreMaxBytes: 64 * 1024 ** 3,
      ...overrides,
    },
    // The counts and the in-process preload go through the factory's test-and-bench probe.
    { probe: (p) => (probe = p) },
  );
  if (!probe) throw new Error('the simulator handed out no probe');
  const { publish, store, polls } = probe;
  const address = await sim.listen(0, '127.0.0.1');
  serveIpc(address.port, {
    /** Stores events through the bus, the path POST /api/message takes after parsing. */
    preload: (args) => {
      const count = Number(args.count);
      const layout = { count, days: layoutDays(count) };
      const started = performance.now();
      for (let i = 1; i <= count; i++) publish(storedEvent(i, layout));
      return {
        stored: store.size,
        lastEventId: store.lastEventId,
        ms: performance.now() - started,
      };
    },
    memory: () => ({ ...measuredMemory(), stored: store.size }),
    waiting: () => polls.size,
    close: async () => {
      await sim.close();
      return exitSoon();
    },
  });
}

void main();
