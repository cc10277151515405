import http from 'node:http';
import { serveCommands } from '../harness/worker';

/**
 * Runs in its own process (forked by the soak), so the load process's busy event loop does not
 * add to the figures: GET /health on each simulator every PROBE_EVERY_MS, timed from the moment
 * it is sent until the answer is read. Stops on the harness's `stop` command (answering with the
 * samples), when the harness goes away, or after PROBE_MAX_MS at the latest (health-probe.ts).
 */
interface Target {
  readonly name: string;
  readonly port: number;
  readonly agent: http.Agent;
  readonly samples: number[];
  /** Date.now() when each sample was sent, so the harness can leave out its warm-up. */
  readonly sentAt: number[];
  failed: number;
}

const targets: Target[] = JSON.parse(process.env.PROBE_TARGETS ?? '[]').map(
  (t: { name: string; port: number }): Target => ({
    name: t.name,
    port: t.port,
    agent: new http.Agent({ keepAlive: true, maxSockets: 4 }),
    samples: [],
    sentAt: [],
    failed: 0,
  }),
);
const everyMs = Number(process.env.PROBE_EVERY_MS ?? '100');
const maxMs = Number(process.env.PROBE_MAX_MS ?? '3600000');

function probe(target: Target): void {
  const sent = performance.now();
  const wall = Date.now();
  const req = http.get(
    { host: '127.0.0.1', port: target.port, path: '/health', agent: target.agent },
    (res) => {
      res.resume();
      res.on('end', () => {
        if (res.statusCode === 200) {
          target.samples.push(performance.now() - sent);
          target.sentAt.push(wall);
        } else target.failed++;
      });
    },
  );
  req.setTimeout(10_000, () => req.destroy(new Error('timeout')));
  req.on('error', () => target.failed++);
}

const timer = setInterval(() => {
  for (const target of targets) probe(target);
}, everyMs);

function results() {
  return Object.fromEntries(
    targets.map((t) => [t.name, { samples: t.samples, sentAt: t.sentAt, failed: t.failed }]),
  );
}

setTimeout(() => clearInterval(timer), maxMs).unref();
serveCommands({
  stop: () => {
    clearInterval(timer);
    return results();
  },
});
