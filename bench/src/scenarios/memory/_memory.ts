import { compare } from '../../harness/rows';
import { rssBytes, startBare, withServer } from '../../harness/processes';

export const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

/** An idle simulator's RSS against the idle bare Node baseline's, in MB. */
export const idleRow = (scenario: string, ours: number, bare: number) =>
  compare({ scenario, unit: 'MB', ours: mb(ours), bare: mb(bare), better: 'lower' });

/** The idle bare Node baseline's RSS after two full GCs (bench/src/servers/bare-node.cjs, plain node). */
export const bareIdleRss = () =>
  withServer(startBare(), async (bare) => {
    await bare.gc();
    return rssBytes(bare.pid);
  });

export const GC_METHOD =
  "Every simulator is the built CLI as users run it, in its own process, with the bench hook preloaded (`node --expose-gc --require bench/src/servers/gc-hook.cjs`): it does nothing but run two full GCs when the harness asks over IPC; every reading follows one, and a first GET /metrics before it (the first answer loads the metrics library, which the CLI reads from its on-demand part: the harness's doing, not the store's). RSS is VmRSS from /proc/<pid>/status, heapUsed and heapTotal are the simulator's own nodejs_heap_size_used_bytes and nodejs_heap_size_total_bytes from GET /metrics.";
