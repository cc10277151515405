import type { JsonSimulatorProbe } from '@racedata/json-sim';
import { measuredMemory, serveIpc } from '../lib/child-ipc';
import { layoutDays, storedEvent } from '../lib/payloads';
import { benchSettings, simPackage } from './server-setup';

/** The JSON simulator under test, in its own process. */
async function main(): Promise<void> {
  const { createJsonSimulator } = await simPackage('json-sim', () => import('@racedata/json-sim'));
  let probe: JsonSimulatorProbe | undefined;
  const sim = createJsonSimulator(
    // The memory measures store up to 1,000,000 events by count; the byte budget must not cut in.
    { eventStoreMaxBytes: 64 * 1024 ** 3, ...benchSettings() },
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
    close: () => sim.close(),
  });
}

void main();
