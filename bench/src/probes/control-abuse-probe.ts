import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';

/**
 * Careless control-plane clients against the JSON simulator in its own process, with /health
 * asked every 10 ms throughout (its p50/p99/max in ms are each scenario's figures):
 *  - waiters: journal waits for more entries than exist, then a 1,000-event page read;
 *  - streams: /_sim/stream clients that never read, then 100,000 journal entries;
 *  - faults: fault rules with the largest status bodies allowed, GET /_sim/faults, and one
 *    console stream read for 8 s.
 * `npm run build && npx tsx bench/src/probes/control-abuse-probe.ts waiters 1 1000` (waiters, page
 * events), `... streams 10` (clients), `... faults 100 999800` (rules, status body bytes); prints
 * one JSON line.
 */
const ROOT = path.resolve(__dirname, '..', '..', '..');
const CLI = path.join(ROOT, 'packages', 'cli', 'bin', 'racedata-sim.js');
const AUTH = { authorization: 'Bearer dGVzdHVzZXI=' };
const agent = new http.Agent({ keepAlive: true, maxSockets: 1000 });

interface Sim {
  readonly port: number;
  readonly child: ChildProcess;
  /** stdout lines seen so far containing the text. */
  lines(text: string): number;
}

async function start(env: Record<string, string> = {}): Promise<Sim> {
  const child = spawn(process.execPath, [CLI, 'json', '--port', '0', '--host', '127.0.0.1', '--no-replay'], {
    env: { ...process.env, LOG_LEVEL: 'warn', EVENT_STORE_MAX_BYTES: String(1024 ** 3), ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const counts = new Map<string, number>();
  let text = '';
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`exited ${code}`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const match = /listening on http:\/\/[^\s]*:(\d+)/.exec(text);
      if (match) resolve(Number(match[1]));
      const lines = text.split('\n');
      text = lines.pop() ?? '';
      for (const line of lines)
        for (const key of counts.keys()) if (line.includes(key)) counts.set(key, (counts.get(key) ?? 0) + 1);
    });
  });
  counts.set('too slow', 0);
  return { port, child, lines: (t) => counts.get(t) ?? 0 };
}

function request(
  port: number,
  method: string,
  pathname: string,
  body?: string,
  timeoutMs = 120_000,
  // A fresh connection: a kept-alive one the server closes as idle while the event loop is
  // stalled answers the next request with a hang-up.
  fresh = false,
): Promise<{ status: number; bytes: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        port,
        host: '127.0.0.1',
        method,
        path: pathname,
        headers: AUTH,
        agent: fresh ? false : agent,
        timeout: timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const all = Buffer.concat(chunks);
          resolve({ status: res.statusCode ?? 0, bytes: all.length, body: all.subarray(0, 300).toString() });
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error(`timeout ${method} ${pathname}`)));
    req.on('error', (err) => reject(new Error(`${method} ${pathname}: ${err.message}`)));
    req.end(body);
  });
}

/** Samples GET /health every 10 ms until stopped; a probe taking longer than 5 s counts as 5 s. */
function healthSampler(port: number): { stop(): Promise<Record<string, number>> } {
  const samples: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const begun = performance.now();
      try {
        await request(port, 'GET', '/health', undefined, 5000);
        samples.push(performance.now() - begun);
      } catch {
        samples.push(5000);
      }
      const left = 10 - (performance.now() - begun);
      if (left > 0) await new Promise((r) => setTimeout(r, left));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      const sorted = samples.sort((a, b) => a - b);
      const at = (q: number) =>
        Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0);
      return { healthN: sorted.length, healthP50: at(0.5), healthP99: at(0.99), healthMax: at(1) };
    },
  };
}

async function seed(port: number, count: number): Promise<void> {
  const lines: string[] = [];
  for (let i = 0; i < count; i++)
    lines.push(JSON.stringify({ channel: 'RaceDayTrot', date: '2026-11-22', payload: { n: i } }));
  const answer = await request(port, 'POST', '/_sim/events', `${lines.join('\n')}\n`);
  if (answer.status !== 201) throw new Error(`seed: ${answer.status} ${answer.body}`);
}

const page = (port: number, after: number, limit: number) =>
  request(port, 'GET', `/customerapi/events?lastEventId=${after}&limit=${limit}`, undefined, 600_000, true);

async function rssMb(port: number): Promise<number> {
  const metrics = await new Promise<string>((resolve) => {
    http.get({ port, host: '127.0.0.1', path: '/metrics', agent }, (res) => {
      let all = '';
      res.on('data', (c: Buffer) => (all += c.toString()));
      res.on('end', () => resolve(all));
    });
  });
  const match = /^process_resident_memory_bytes (\S+)$/m.exec(metrics);
  return Math.round(Number(match?.[1] ?? 0) / 1024 ** 2);
}

async function waiters(count: number, pageEvents: number): Promise<Record<string, unknown>> {
  const sim = await start();
  try {
    await seed(sim.port, 10_000);
    for (let after = 0; after < 9000; after += 1000) await page(sim.port, after, 1000);
    const statuses = new Map<number, number>();
    const held: Array<Promise<unknown>> = [];
    for (let i = 0; i < count; i++) {
      held.push(
        request(
          sim.port,
          'GET',
          '/_sim/journal/wait?kind=delivered&count=10000&timeout=600000',
          undefined,
          600_000,
        )
          .then((r) => statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1))
          .catch(() => undefined),
      );
    }
    // Every wait is registered once an answer after them comes back on other sockets.
    await request(sim.port, 'GET', '/_sim/state');
    const sampler = healthSampler(sim.port);
    const begun = performance.now();
    const read = await page(sim.port, 9000, pageEvents);
    // The journal entries of a page are recorded as it is written: the next answer waits for them.
    await request(sim.port, 'GET', '/health', undefined, 600_000);
    const readMs = Math.round(performance.now() - begun);
    // /health keeps being asked while the waits the read completed are answered (up to 15 s).
    await Promise.race([Promise.all(held), new Promise((resolve) => setTimeout(resolve, 15_000).unref())]);
    const answeredMs = Math.round(performance.now() - begun);
    const health = await sampler.stop();
    return {
      scenario: `waiters x${count}`,
      pageEvents,
      readStatus: read.status,
      readMs,
      answeredMs,
      ...health,
      waitAnswers: Object.fromEntries(statuses),
    };
  } finally {
    sim.child.kill('SIGKILL');
  }
}

async function streams(clients: number): Promise<Record<string, unknown>> {
  const sim = await start();
  try {
    await seed(sim.port, 100_000);
    const sockets: net.Socket[] = [];
    const refused = { n: 0 };
    for (let i = 0; i < clients; i++) {
      const socket = net.connect(sim.port, '127.0.0.1');
      socket.write(`GET /_sim/stream HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
      // Reads only the first chunk (the answer's head), then never again.
      socket.once('data', (d: Buffer) => {
        if (d.toString().startsWith('HTTP/1.1 429')) refused.n++;
        socket.pause();
      });
      socket.on('error', () => undefined);
      sockets.push(socket);
    }
    await request(sim.port, 'GET', '/_sim/state');
    const sampler = healthSampler(sim.port);
    const begun = performance.now();
    for (let after = 0; after < 100_000; after += 10_000) await page(sim.port, after, 10_000);
    const readsMs = Math.round(performance.now() - begun);
    const health = await sampler.stop();
    const rss = await rssMb(sim.port);
    for (const socket of sockets) socket.destroy();
    return {
      scenario: `streams x${clients}`,
      refused: refused.n,
      readsMs,
      ...health,
      tooSlowLogLines: sim.lines('too slow'),
      rssMb: rss,
    };
  } finally {
    sim.child.kill('SIGKILL');
  }
}

async function faults(rules: number, bodyBytes: number): Promise<Record<string, unknown>> {
  const sim = await start();
  try {
    const body = JSON.stringify({
      match: { path: '/nowhere' },
      action: { type: 'status', status: 503, body: 'x'.repeat(bodyBytes) },
    });
    const statuses = new Map<number, number>();
    for (let i = 0; i < rules; i++) {
      const answer = await request(sim.port, 'POST', '/_sim/faults', body);
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
    }
    const list = await request(sim.port, 'GET', '/_sim/faults');
    const sampler = healthSampler(sim.port);
    let streamed = 0;
    let stateEvents = 0;
    await new Promise<void>((resolve) => {
      const req = http.get({ port: sim.port, host: '127.0.0.1', path: '/_sim/stream' }, (res) => {
        res.on('data', (c: Buffer) => {
          streamed += c.length;
          stateEvents += c.toString('latin1').split('event: state\n').length - 1;
        });
      });
      req.on('error', () => undefined);
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 8000);
    });
    const health = await sampler.stop();
    return {
      scenario: `faults x${rules} of ${bodyBytes} B`,
      answers: Object.fromEntries(statuses),
      listMb: +(list.bytes / 1024 ** 2).toFixed(1),
      streamKbIn8s: Math.round(streamed / 1024),
      stateEvents,
      ...health,
      rssMb: await rssMb(sim.port),
    };
  } finally {
    sim.child.kill('SIGKILL');
  }
}

async function main(): Promise<void> {
  const [scenario, a, b] = process.argv.slice(2);
  const n = (text: string | undefined, fallback: number) => (text === undefined ? fallback : Number(text));
  const row =
    scenario === 'waiters'
      ? await waiters(n(a, 1), n(b, 1000))
      : scenario === 'streams'
        ? await streams(n(a, 10))
        : scenario === 'faults'
          ? await faults(n(a, 100), n(b, 1_000_000 - 200))
          : undefined;
  if (!row)
    throw new Error('usage: control-abuse-probe waiters|streams|faults [count] [page events | body bytes]');
  console.log(JSON.stringify(row));
  agent.destroy();
}

void main();
