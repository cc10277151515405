import type { UserSpec } from '@racedata/core';
import type { LegacySimulatorProbe } from '@racedata/legacy-sim';
import { measuredMemory, serveIpc } from '../lib/child-ipc';
import { legacyXml } from '../lib/payloads';
import { benchSettings, simPackage } from './server-setup';

/**
 * The legacy simulator under test, in its own process. BENCH_EXTRA_USERS adds users
 * bench-1..N (token bench-token-i, every channel) so a Durable post to `id` fills N queues.
 */
async function main(): Promise<void> {
  const legacy = await simPackage('legacy-sim', () => import('@racedata/legacy-sim'));
  const core = await simPackage('core', () => import('@racedata/core'));
  const { createLegacySimulator } = legacy;
  const { UserTable } = core;
  // The built-in users and catalog are the simulator's own; a --before checkout older than the
  // simulators' self-descriptions still has them in core.
  const older = core as unknown as Partial<typeof legacy>;
  const LEGACY_USERS: readonly UserSpec[] = legacy.LEGACY_USERS ?? older.LEGACY_USERS ?? [];
  const legacyChannelCatalog = legacy.legacyChannelCatalog ?? older.legacyChannelCatalog!;
  const extra = Number(process.env.BENCH_EXTRA_USERS ?? '0');
  const catalog = legacyChannelCatalog();
  const specs = [
    ...LEGACY_USERS,
    ...Array.from({ length: extra }, (_, i) => ({
      name: `bench ${i + 1}`,
      key: `bench-${i + 1}`,
      secret: 'bench',
      token: `bench-token-${i + 1}`,
      channels: '*' as const,
    })),
  ];
  let probe: LegacySimulatorProbe | undefined;
  const sim = createLegacySimulator(benchSettings(), {
    catalog,
    users: UserTable.fromJSON(specs, catalog, 'bench users'),
    // The counts and the in-process preload go through the factory's test-and-bench probe.
    probe: (p) => (probe = p),
  });
  if (!probe) throw new Error('the simulator handed out no probe');
  const { publish, queues } = probe;
  const address = await sim.listen(0, '127.0.0.1');
  serveIpc(address.port, {
    /** Queues messages through the bus, the path POST .../Durable takes after reading the body. */
    'preload-legacy': (args) => {
      const count = Number(args.count);
      const started = performance.now();
      for (let i = 1; i <= count; i++) {
        publish({ channel: 'id', delivery: 'durable', payloadKey: `bench-${i}`, xml: legacyXml(i) });
      }
      return { queued: queues.totalDepth, ms: performance.now() - started };
    },
    memory: () => ({ ...measuredMemory(), queued: queues.totalDepth }),
    /** Held listens: polls waiting on the queues. */
    waiting: () => queues.totalWaiting,
    close: () => sim.close(),
  });
}

void main();
