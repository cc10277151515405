// A server under measurement, in its own process: the JSON simulator of the build at PERF_ROOT
// (PERF_KIND sim), its legacy simulator (legacy), or a bare baseline (bare-http / bare-ws).
// Commands arrive over the fork IPC channel.
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import { createRequire } from 'node:module';

const kind = process.env.PERF_KIND ?? 'sim';
const root = process.env.PERF_ROOT ?? process.cwd();
const require = createRequire(path.join(root, 'package.json'));
const handlers = {
  cpu: () => process.cpuUsage(),
  memory: () => {
    global.gc?.();
    global.gc?.();
    const m = process.memoryUsage();
    return {
      rss: m.rss,
      heapUsed: m.heapUsed,
      heapTotal: m.heapTotal,
      external: m.external,
      arrayBuffers: m.arrayBuffers,
    };
  },
  close: () => setTimeout(() => process.exit(0), 20),
  // V8's CPU profiler for exactly the measured load (PERF_PROFILE=dir in the harness).
  'profile-start': async () => {
    session = new Session();
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
    return true;
  },
  'profile-stop': async ({ file }) => {
    const { profile } = await session.post('Profiler.stop');
    session.disconnect();
    writeFileSync(file, JSON.stringify(profile));
    return file;
  },
};
let session;

const CHANNELS = [
  'RaceDayTrot',
  'StartListTrot',
  'ResultTrot',
  'RaceDayGallop',
  'StartListGallop',
  'ResultGallop',
  'ScratchingsTrot',
  'ScratchingsGallop',
];
const FIRST_DAY = Date.UTC(2025, 0, 1);
const day = (d) => new Date(FIRST_DAY + d * 86_400_000).toISOString().slice(0, 10);

/** The benchmark's start-list event i of a store of `count`: 8 channels, ~2,000 events a day. */
function storedEvent(i, count, days) {
  const raceNr = (i % 10) + 1;
  const startNr = (i % 12) + 1;
  return {
    channel: CHANNELS[i % 8],
    date: day(Math.min(days - 1, Math.floor(((i - 1) * days) / count))),
    trackId: 900 + (i % 20),
    raceNr,
    startNr,
    payload: {
      raceNr,
      startNr,
      postPosition: startNr,
      distance: 2140,
      horse: { id: 100_000 + (i % 50_000), name: `Horse ${i % 50_000}`, age: 3 + (i % 9) },
      driver: { id: 5000 + (i % 700), name: `Driver ${i % 700}` },
      trainer: { id: 8000 + (i % 900), name: `Trainer ${i % 900}` },
      shoes: { front: i % 2 === 0, back: i % 3 === 0 },
      odds: Math.round(((i % 400) + 11) * 10) / 100,
      scratched: false,
    },
  };
}

let port;
if (kind === 'sim') {
  const { createJsonSimulator } = require('./packages/json-sim/dist/index.js');
  let probe;
  let seeder;
  const sim = createJsonSimulator(
    {
      host: '127.0.0.1',
      logLevel: 'silent',
      longPollTimeoutMs: 600_000,
      wsAuthTimeoutMs: 600_000,
      wsPingIntervalMs: 3_600_000,
      eventStoreMaxBytes: 64 * 1024 ** 3,
      wsMaxSessionsPerUser: 100_000,
    },
    { probe: (p) => (probe = p), seeder: (s) => (seeder = s) },
  );
  port = (await sim.listen(0, '127.0.0.1')).port;
  handlers.preload = ({ count }) => {
    const days = Math.max(1, Math.min(365, Math.ceil(count / 2000)));
    const started = performance.now();
    const cpu = process.cpuUsage();
    for (let i = 1; i <= count; i++) probe.publish(storedEvent(i, count, days));
    const used = process.cpuUsage(cpu);
    return {
      stored: probe.store.size,
      ms: performance.now() - started,
      cpuMs: (used.user + used.system) / 1000,
    };
  };
  handlers.seed = ({ count }) => {
    if (!seeder) return { unsupported: true };
    const started = performance.now();
    const cpu = process.cpuUsage();
    const result = seeder.generated(count);
    const used = process.cpuUsage(cpu);
    return { ...result, ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000 };
  };
} else if (kind === 'legacy') {
  // The legacy simulator, for STOMP fan-out: the same quiet settings as the JSON one.
  const { createLegacySimulator } = require('./packages/legacy-sim/dist/index.js');
  const sim = createLegacySimulator({
    host: '127.0.0.1',
    logLevel: 'silent',
    longPollTimeoutMs: 600_000,
    wsAuthTimeoutMs: 600_000,
    wsMaxSessionsPerUser: 100_000,
  });
  port = (await sim.listen(0, '127.0.0.1')).port;
} else if (kind === 'bare-http') {
  let body = Buffer.from('{}');
  handlers.setBody = ({ text }) => ((body = Buffer.from(text, 'utf8')), body.length);
  const server = createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length });
    res.end(body);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = server.address().port;
} else {
  // A bare ws broadcast: every POST body goes as a text message to every connected client.
  const { WebSocketServer } = require('ws');
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      for (const ws of wss.clients) ws.send(text);
      res.writeHead(202, { 'content-length': 0 });
      res.end();
    });
  });
  server.on('upgrade', (req, socket, head) =>
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req)),
  );
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = server.address().port;
}

process.on('message', async ({ id, cmd, args }) => {
  try {
    process.send({ id, ok: true, result: await handlers[cmd](args ?? {}) });
  } catch (err) {
    process.send({ id, ok: false, error: String(err?.stack ?? err) });
  }
});
process.on('disconnect', () => process.exit(0));
process.send({ ready: true, port });
