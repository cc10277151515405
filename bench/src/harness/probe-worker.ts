import http from 'node:http';
import { serveCommands } from './worker';

/**
 * The /health prober of the soak and the abuse run (watch.ts), in a process of its own so the
 * load's busy event loop does not add to the figures: GET /health on each target every
 * PROBE_EVERY_MS, timed from the moment it is sent until the answer is read, until the harness
 * says `stop` (and gets the samples), goes away, or PROBE_MAX_MS has passed.
 */
const targets = (JSON.parse(process.env.PROBE_TARGETS ?? '[]') as Array<{ name: string; port: number }>).map(
  (t) => ({
    ...t,
    agent: new http.Agent({ keepAlive: true, maxSockets: 4 }),
    /** Latency (ms), when each was sent (Date.now(), so the harness can leave out a warm-up), failures. */
    ...{ samples: [] as number[], sentAt: [] as number[], failed: 0 },
  }),
);

const timer = setInterval(
  () => {
    for (const target of targets) {
      const [sent, wall] = [performance.now(), Date.now()];
      const req = http.get(
        { host: '127.0.0.1', port: target.port, path: '/health', agent: target.agent },
        (res) => {
          res.resume();
          res.on('end', () => {
            if (res.statusCode !== 200) return void target.failed++;
            target.samples.push(performance.now() - sent);
            target.sentAt.push(wall);
          });
        },
      );
      req.setTimeout(10_000, () => req.destroy(new Error('timeout')));
      req.on('error', () => target.failed++);
    }
  },
  Number(process.env.PROBE_EVERY_MS ?? '100'),
);
setTimeout(() => clearInterval(timer), Number(process.env.PROBE_MAX_MS ?? '3600000')).unref();

serveCommands({
  stop: () => {
    clearInterval(timer);
    return Object.fromEntries(
      targets.map(({ name, samples, sentAt, failed }) => [name, { samples, sentAt, failed }]),
    );
  },
});
