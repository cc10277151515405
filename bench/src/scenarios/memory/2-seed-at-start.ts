import { cpuMs, rssBytes, withServer } from '../../harness/processes';
import { absoluteRow, count } from '../../harness/rows';
import { startStore } from '../../harness/store';
import type { BenchContext, Scenario } from '../../types';

/** A start with `args`: wall time to the banner, CPU time by then, RSS after two full GCs. */
function start(ctx: BenchContext, events: number, args: string[]) {
  const started = performance.now();
  return withServer(startStore(ctx, events, { args }), async (sim) => {
    const [wallMs, cpu] = [performance.now() - started, cpuMs(sim.pid)];
    await sim.gc();
    return { wallMs, cpu, rss: rssBytes(sim.pid) };
  });
}

export default {
  method: () => [
    'The `--seed N` row starts the same command twice, with and without `--seed N` at the largest size (the store generated in the process before it listens), and charges the difference in CPU time at the banner (/proc) to the generation; RSS per event is read the same way as above.',
  ],
  async run(ctx) {
    const events = Math.max(...ctx.config.memory.storeSizes);
    ctx.log(`  ${events} events generated at start (racedata-sim json --seed ${events})`);
    const plain = await start(ctx, events, []);
    const seeded = await start(ctx, events, ['--seed', String(events)]);
    const used = seeded.cpu - plain.cpu;
    const scenario = `JSON simulator started with --seed ${count(events)}: generation rate (server CPU)`;
    return {
      rows: [
        absoluteRow({
          ...{ scenario, unit: 'events/s', ours: (events * 1000) / Math.max(used, 1) },
          note: `${(used / 1000).toFixed(2)} s more CPU and ${((seeded.wallMs - plain.wallMs) / 1000).toFixed(2)} s more wall time to the banner than a start without --seed; RSS ${Math.round((seeded.rss - plain.rss) / events)} B per generated event after GC`,
        }),
      ],
    };
  },
} satisfies Scenario;
