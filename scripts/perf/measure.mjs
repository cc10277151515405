// Before/after measures for the store, the read path, seeding and WebSocket fan-out: each
// figure compares builds measured in the same run, interleaved, as ratios. Usage:
//   node scripts/perf/measure.mjs [memory|reads|fanout|seed ...] [--sizes 10000,100000,1000000]
//   fanout: [--transport json|stomp] [--clients 1000] [--rate 100] [--seconds 4] [--rounds 3]
// PERF_BEFORE=<root of a built checkout> adds the "before" side (e.g. a worktree of main).
// Results are printed and written to .tmp/perf/ (ignored by git).
import { fork } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..', '..');
const require = createRequire(path.join(repo, 'package.json'));
const autocannon = require('autocannon');
const WebSocket = require('ws');

const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : fallback;
};
const wanted = args.filter((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'));
const measures = wanted.length > 0 ? wanted : ['memory', 'reads', 'fanout', 'seed'];
const sizes = flag('sizes', '10000,100000,1000000').split(',').map(Number);
const BUILDS = [
  ...(process.env.PERF_BEFORE ? [{ name: 'before', root: process.env.PERF_BEFORE }] : []),
  { name: 'after', root: repo },
];
const DEFAULT_TOKEN = 'dGVzdHVzZXI=';
const out = {};

function startChild(name, kind, root = repo, maxOldSpaceMb = 8192) {
  const child = fork(path.join(here, 'child.mjs'), [], {
    cwd: root,
    execArgv: ['--expose-gc', `--max-old-space-size=${maxOldSpaceMb}`],
    env: { ...process.env, PERF_KIND: kind, PERF_ROOT: root },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const pending = new Map();
  let next = 1;
  child.on('message', (m) => {
    const waiter = pending.get(m.id);
    if (!waiter) return;
    pending.delete(m.id);
    if (m.ok) waiter.resolve(m.result);
    else waiter.reject(new Error(`${name}: ${m.error}`));
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${name} exited ${code}`)));
    child.once('message', (m) => {
      if (!m.ready) return;
      resolve({
        name,
        port: m.port,
        call: (cmd, a = {}) =>
          new Promise((res, rej) => {
            const id = next++;
            pending.set(id, { resolve: res, reject: rej });
            child.send({ id, cmd, args: a });
          }),
        close: () => {
          child.removeAllListeners('exit');
          child.kill('SIGKILL');
        },
      });
    });
  });
}

const agent = new Agent({ keepAlive: true, maxSockets: 1 });
function get(port, p, token = DEFAULT_TOKEN) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(
      { host: '127.0.0.1', port, path: p, agent, headers: { authorization: `Bearer ${token}` } },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode, ms: performance.now() - started, body: Buffer.concat(chunks) }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

function post(port, p, body) {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: p,
        method: 'POST',
        agent: postAgent,
        headers: { 'content-type': 'application/json' },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
const postAgent = new Agent({ keepAlive: true, maxSockets: 8 });

const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};
const round = (x, d = 3) => Math.round(x * 10 ** d) / 10 ** d;
const layoutDays = (count) => Math.max(1, Math.min(365, Math.ceil(count / 2000)));

async function memory() {
  const count = Number(flag('count', '1000000'));
  const rows = [];
  for (const build of BUILDS) {
    const sim = await startChild(build.name, 'sim', build.root);
    const idle = await sim.call('memory');
    const loaded = await sim.call('preload', { count });
    const full = await sim.call('memory');
    rows.push({
      build: build.name,
      count,
      preloadEventsPerSecCpu: Math.round(count / (loaded.cpuMs / 1000)),
      rssPerEvent: Math.round((full.rss - idle.rss) / count),
      heapUsedMB: Math.round(full.heapUsed / 2 ** 20),
      heapTotalMB: Math.round(full.heapTotal / 2 ** 20),
      heapTotalOverUsed: round(full.heapTotal / full.heapUsed, 2),
      rssMB: Math.round(full.rss / 2 ** 20),
    });
    sim.close();
  }
  console.table(rows);
  out.memory = rows;
}

async function seed() {
  const count = Number(flag('count', '1000000'));
  const rows = [];
  const sim = await startChild('after', 'sim', repo);
  const idle = await sim.call('memory');
  const result = await sim.call('seed', { count });
  const full = await sim.call('memory');
  rows.push({
    build: 'after (--seed N path)',
    count,
    eventsPerSecWall: Math.round(count / (result.ms / 1000)),
    eventsPerSecCpu: Math.round(count / (result.cpuMs / 1000)),
    rssPerEvent: Math.round((full.rss - idle.rss) / count),
    heapTotalOverUsed: round(full.heapTotal / full.heapUsed, 2),
  });
  sim.close();
  console.table(rows);
  out.seed = rows;
}

async function reads() {
  out.reads = [];
  for (const size of sizes) {
    const sims = await Promise.all(BUILDS.map((b) => startChild(b.name, 'sim', b.root)));
    for (const sim of sims) await sim.call('preload', { count: size });
    const days = layoutDays(size);
    const span = Math.max(1, size - 1000);
    const pagePath = () =>
      `/customerapi/events?lastEventId=${1 + Math.floor(Math.random() * span)}&limit=100`;
    // trackId 901 means i % 20 === 1 (odd i), startNr 3 means i % 12 === 2 (even i): never both.
    const none = `/customerapi/filtered-events?startDate=2025-01-01&endDate=${dayText(days + 30)}&trackId=901&raceNr=2&startNr=3&limit=100`;
    // Selective: one race of one track on a wide date range (1 event in 40 of the channels).
    const some = `/customerapi/filtered-events?startDate=2025-01-01&endDate=${dayText(days + 30)}&trackId=901&raceNr=2&limit=100&lastEventId=`;
    const samples = new Map(sims.map((s) => [s.name, { page: [], none: [], some: [] }]));
    for (let r = 0; r < 4; r++) {
      for (const sim of r % 2 === 0 ? sims : [...sims].reverse()) {
        const mine = samples.get(sim.name);
        for (let i = 0; i < 250; i++) {
          mine.page.push((await get(sim.port, pagePath())).ms);
          const n = await get(sim.port, none);
          if (n.status !== 204) throw new Error(`${sim.name}: no-match answered ${n.status}`);
          mine.none.push(n.ms);
          mine.some.push((await get(sim.port, some + Math.floor(Math.random() * span))).ms);
        }
      }
    }
    for (const sim of sims) {
      const s = samples.get(sim.name);
      const row = {
        build: sim.name,
        events: size,
        pageP50ms: round(quantile(s.page, 0.5)),
        noMatchP50ms: round(quantile(s.none, 0.5)),
        selectiveP50ms: round(quantile(s.some, 0.5)),
        noMatchOverPage: round(quantile(s.none, 0.5) / quantile(s.page, 0.5), 2),
        selectiveOverPage: round(quantile(s.some, 0.5) / quantile(s.page, 0.5), 2),
      };
      out.reads.push(row);
    }
    if (size >= 100_000) await throughput(size, sims, pagePath);
    for (const sim of sims) sim.close();
    console.table(out.reads.filter((r) => r.events === size));
  }
}

function dayText(d) {
  return new Date(Date.UTC(2025, 0, 1) + d * 86_400_000).toISOString().slice(0, 10);
}

async function throughput(size, sims, pagePath) {
  const bare = await startChild('bare', 'bare-http');
  const sample = await get(
    sims[sims.length - 1].port,
    `/customerapi/events?lastEventId=${Math.floor(size / 2)}&limit=100`,
  );
  await bare.call('setBody', { text: sample.body.toString('utf8') });
  const subjects = [...sims, bare];
  const rps = new Map(subjects.map((s) => [s.name, []]));
  const seconds = Number(flag('seconds', '4'));
  for (let r = 0; r < 3; r++) {
    const order = subjects.map((_, i) => subjects[(i + r) % subjects.length]);
    for (const s of order) {
      const result = await autocannon({
        url: `http://127.0.0.1:${s.port}`,
        connections: 32,
        duration: seconds,
        headers: { authorization: `Bearer ${DEFAULT_TOKEN}` },
        requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: pagePath() }) }],
      });
      rps.get(s.name).push(result['2xx'] / result.duration);
    }
  }
  bare.close();
  const bareRps = rps.get('bare').reduce((a, b) => a + b) / 3;
  const rows = sims.map((s) => {
    const mine = rps.get(s.name).reduce((a, b) => a + b) / 3;
    return {
      build: s.name,
      events: size,
      reqPerSec: Math.round(mine),
      bareReqPerSec: Math.round(bareRps),
      ratioToBare: round(mine / bareRps),
      rounds: rps.get(s.name).map(Math.round).join(' / '),
    };
  });
  console.table(rows);
  (out.throughput ??= []).push(...rows);
}

/**
 * How a fan-out subject is connected to and posted to. `json`: the JSON simulator's event stream
 * (token as the first message). `stomp`: the legacy simulator's STOMP endpoint (token on the
 * upgrade, CONNECT without heart-beats, one SUBSCRIBE confirmed by a RECEIPT), fed NonDurable
 * posts to channel `id`. `bare`: a bare ws server; every open socket is a client.
 */
const TRANSPORTS = {
  json: {
    kind: 'sim',
    socketPath: '/customerapi/event-stream',
    options: {},
    open: (ws) => ws.send(DEFAULT_TOKEN),
    ready: (text) => text.includes('"Authenticated"'),
    isData: () => true,
    postPath: '/api/message',
    body: (seq) =>
      JSON.stringify({
        channel: 'TimeToStartTrot',
        date: '2025-06-01',
        trackId: 901,
        raceNr: 3,
        payload: { seq, secondsToStart: 300 - (seq % 300), startTime: '2025-06-01T15:35:00+02:00' },
      }),
  },
  stomp: {
    kind: 'legacy',
    socketPath: '/customerapi/channels/connect',
    protocols: ['v12.stomp'],
    options: { headers: { authorization: `Bearer ${DEFAULT_TOKEN}` } },
    open: (ws) => ws.send('CONNECT\naccept-version:1.2\nhost:localhost\nheart-beat:0,0\n\n\0'),
    ready: (text, ws) => {
      if (text.startsWith('CONNECTED'))
        ws.send('SUBSCRIBE\nid:sub-0\ndestination:/user/topic/publish\nreceipt:r0\n\n\0');
      return text.startsWith('RECEIPT');
    },
    isData: (data) => data[0] === 0x4d, // 'M': a MESSAGE frame
    postPath: '/customerapi/channel/id/NonDurable',
    body: (seq) =>
      `<TimeToStart><Seq>${seq}</Seq><TrackId>901</TrackId><RaceNr>3</RaceNr><SecondsToStart>${300 - (seq % 300)}</SecondsToStart></TimeToStart>`,
  },
  bare: {
    kind: 'bare-ws',
    socketPath: '/',
    options: {},
    ready: undefined,
    isData: () => true,
    postPath: '/broadcast',
  },
};

async function connectClients(port, count, transport) {
  const clients = [];
  for (let i = 0; i < count; i += 50) {
    const batch = [];
    for (let k = i; k < Math.min(count, i + 50); k++) {
      batch.push(
        new Promise((resolve, reject) => {
          const ws = new WebSocket(`ws://127.0.0.1:${port}${transport.socketPath}`, transport.protocols, {
            perMessageDeflate: false,
            ...transport.options,
          });
          const client = { ws, times: [] };
          ws.on('error', reject);
          let ready = !transport.ready;
          if (ready) ws.on('open', () => resolve(client));
          else ws.on('open', () => transport.open(ws));
          ws.on('message', (data) => {
            if (!ready) {
              if (transport.ready(String(data), ws)) {
                ready = true;
                resolve(client);
              }
              return;
            }
            if (transport.isData(data)) client.times.push(performance.now());
          });
        }),
      );
    }
    clients.push(...(await Promise.all(batch)));
  }
  return clients;
}

async function fanout() {
  const count = Number(flag('clients', '1000'));
  const rate = Number(flag('rate', '100'));
  const seconds = Number(flag('seconds', '4'));
  const rounds = Number(flag('rounds', '3'));
  const transport = TRANSPORTS[flag('transport', 'json')];
  const sims = await Promise.all(BUILDS.map((b) => startChild(b.name, transport.kind, b.root)));
  const bare = await startChild('bare', 'bare-ws');
  const subjects = [
    ...sims.map((s) => ({ server: s, transport })),
    { server: bare, transport: TRANSPORTS.bare },
  ];
  for (const subject of subjects)
    subject.clients = await connectClients(subject.server.port, count, subject.transport);
  // The bare server is posted the exact frame text our clients receive (for STOMP, one
  // client's: the others differ only in their subscription and message-id headers).
  let frameText;
  {
    const probe = subjects[0].clients[0];
    const got = new Promise((resolve) => probe.ws.once('message', (d) => resolve(String(d))));
    await post(subjects[0].server.port, transport.postPath, transport.body(0));
    frameText = await got;
    await new Promise((r) => setTimeout(r, 500));
  }
  const bodyOf = (subject, seq) => (subject.transport === transport ? transport.body(seq) : frameText);
  const stats = new Map(
    subjects.map((s) => [s.server.name, { cpuRounds: [], deliveries: 0, latencies: [], rates: [] }]),
  );
  for (let r = 0; r < rounds; r++) {
    const order = subjects.map((_, i) => subjects[(i + r) % subjects.length]);
    for (const subject of order) {
      const { server, clients } = subject;
      for (const c of clients) c.times = [];
      const total = rate * seconds;
      const postedAt = [];
      const profile = process.env.PERF_PROFILE && r === rounds - 1 && subject.transport === transport;
      if (profile) await server.call('profile-start');
      const cpu0 = await server.call('cpu');
      const t0 = performance.now();
      for (let k = 0; k < total; k++) {
        const due = t0 + (k * 1000) / rate;
        const wait = due - performance.now();
        if (wait > 1) await new Promise((res) => setTimeout(res, wait));
        postedAt.push(performance.now());
        void post(server.port, subject.transport.postPath, bodyOf(subject, k + 1));
      }
      const deadline = performance.now() + 20_000;
      while (clients.some((c) => c.times.length < total) && performance.now() < deadline)
        await new Promise((res) => setTimeout(res, 20));
      const elapsed = (Math.max(...clients.map((c) => c.times.at(-1) ?? 0)) - t0) / 1000;
      const cpu1 = await server.call('cpu');
      if (profile) {
        mkdirSync(process.env.PERF_PROFILE, { recursive: true });
        await server.call('profile-stop', {
          file: path.join(
            process.env.PERF_PROFILE,
            `fanout-${flag('transport', 'json')}-${server.name}.cpuprofile`,
          ),
        });
      }
      const s = stats.get(server.name);
      const delivered = clients.reduce((n, c) => n + c.times.length, 0);
      s.cpuRounds.push((cpu1.user + cpu1.system - cpu0.user - cpu0.system) / delivered);
      s.deliveries += delivered;
      for (const c of clients) {
        for (let k = 0; k < c.times.length; k += 4) s.latencies.push(c.times[k] - postedAt[k]);
      }
      s.rates.push(round(total / elapsed, 1));
    }
  }
  // CPU per delivery is the median of the rounds; the ratio is the median of each round's
  // ratio to the bare server's round next to it, so a noisy neighbour skews one pair at most.
  const bareStats = stats.get('bare');
  const bareP99 = quantile(bareStats.latencies, 0.99);
  const rows = subjects.map(({ server }) => {
    const s = stats.get(server.name);
    const cpu = quantile(s.cpuRounds, 0.5);
    const ratios = s.cpuRounds.map((c, r) => c / bareStats.cpuRounds[r]);
    const p99 = quantile(s.latencies, 0.99);
    return {
      subject: server.name,
      clients: count,
      msgPerSec: `${rate} offered; kept up ${s.rates.join(' / ')}`,
      deliveries: s.deliveries,
      cpuUsPerDelivery: round(cpu, 2),
      cpuVsBare: round(quantile(ratios, 0.5), 2),
      cpuRatioRounds: ratios.map((x) => round(x, 2)).join(' '),
      p99ms: round(p99, 1),
      p99VsBare: round(p99 / bareP99, 2),
    };
  });
  console.table(rows);
  out.fanout = { frameBytes: Buffer.byteLength(frameText), rows };
  for (const subject of subjects) for (const c of subject.clients) c.ws.terminate();
  for (const subject of subjects) subject.server.close();
}

const started = new Date().toISOString();
for (const m of measures) {
  console.log(`== ${m}`);
  await { memory, reads, fanout, seed }[m]();
}
mkdirSync(path.join(repo, '.tmp', 'perf'), { recursive: true });
const file = path.join(repo, '.tmp', 'perf', `measure-${started.replace(/[:.]/g, '-')}.json`);
writeFileSync(file, JSON.stringify({ started, builds: BUILDS, measures, out }, null, 2));
console.log(`written ${file}`);
agent.destroy();
postAgent.destroy();
