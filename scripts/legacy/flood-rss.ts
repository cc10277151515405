/**
 * Floods a default legacy simulator (one process, defaults but the port) with durable posts of
 * about 1 MB and prints the peak RSS of the process (server and this client together).
 *
 *   npm run build && npx tsx scripts/legacy/flood-rss.ts [posts] [concurrency] [legacyQueueMaxBytes]
 */
import { createLegacySimulator, type LegacySimulatorProbe } from '@racedata/legacy-sim';

async function main(): Promise<void> {
  const [posts = 800, concurrency = 8, maxBytes] = process.argv.slice(2).map(Number);
  let probe: LegacySimulatorProbe | undefined;
  const sim = createLegacySimulator(maxBytes ? { legacyQueueMaxBytes: maxBytes } : {}, {
    probe: (p) => (probe = p),
  });
  if (!probe) throw new Error('the simulator handed out no probe');
  const { queues } = probe;
  const { port } = await sim.listen(0, '127.0.0.1');
  const url = `http://127.0.0.1:${port}/customerapi/channel/id/Durable`;
  // Just under the default MAX_BODY_BYTES (1 MiB); each body differs so nothing can be shared.
  const filler = 'x'.repeat(1024 * 1024 - 64);
  let peak = process.memoryUsage().rss;
  const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  let next = 0;
  const statuses = new Map<number, number>();
  const worker = async () => {
    while (next < posts) {
      const n = next++;
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'text/xml' },
        body: `<m n="${n}">${filler}</m>`,
      });
      await res.arrayBuffer();
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      peak = Math.max(peak, process.memoryUsage().rss);
    }
  };
  const started = Date.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  clearInterval(sample);
  const mb = (n: number) => Math.round(n / 1024 / 1024);
  console.log(
    JSON.stringify({
      posts,
      concurrency,
      statuses: Object.fromEntries(statuses),
      peakRssMb: mb(peak),
      endRssMb: mb(process.memoryUsage().rss),
      queued: queues.totalDepth,
      queuedMb: mb(queues.queuedBytes),
      dropped: queues.droppedCount,
      seconds: (Date.now() - started) / 1000,
    }),
  );
  await sim.close();
}

void main();
