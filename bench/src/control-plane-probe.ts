import { spawn } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';

/**
 * Hostile and careless control-plane clients against the JSON simulator in its own process:
 *  - cross-site: what a page on another origin can send (text/plain bodies with its Origin),
 *    a DNS-rebound name in Host, and whether the console may be framed;
 *  - clock: 2,739 advances of the largest step, what answers after them, and what reset does.
 * `npm run build && npx tsx bench/src/control-plane-probe.ts` (the server runs from dist/);
 * prints one JSON line per scenario.
 */
const ROOT = path.resolve(__dirname, '..', '..');
const BIN = path.join(ROOT, 'packages', 'cli', 'bin', 'racedata-sim.js');
const HUNDRED_YEARS_MS = 100 * 365 * 24 * 3_600_000;

interface Answer {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
}

function request(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.once('error', reject);
    req.end(body);
  });
}

async function start(): Promise<{ port: number; stop: () => void }> {
  const child = spawn(process.execPath, [BIN, 'json', '--port', '0', '--host', '127.0.0.1'], {
    env: { ...process.env, LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`simulator exited ${code}: ${out}`)));
  });
  return { port, stop: () => child.kill('SIGTERM') };
}

async function offset(port: number): Promise<unknown> {
  const state = await request(port, 'GET', '/_sim/state');
  return state.status === 200
    ? (JSON.parse(state.body) as { clockOffsetMs: number }).clockOffsetMs
    : state.status;
}

async function crossSite(port: number): Promise<Record<string, unknown>> {
  const foreign = { origin: 'http://127.0.0.1:1', 'content-type': 'text/plain;charset=UTF-8' };
  const advance = await request(port, 'POST', '/_sim/clock/advance', foreign, '{"ms":90000000}');
  const offsetAfter = await offset(port);
  const fault = await request(
    port,
    'POST',
    '/_sim/faults',
    foreign,
    '{"match":{"transport":"events"},"action":{"type":"status","status":503}}',
  );
  const plain = await request(
    port,
    'POST',
    '/_sim/clock/advance',
    { 'content-type': 'text/plain' },
    '{"ms":1}',
  );
  const faults = JSON.parse((await request(port, 'GET', '/_sim/faults')).body) as { rules: unknown[] };
  const rebound = `attacker.example:${port}`;
  const users = await request(port, 'GET', '/_sim/users', { host: rebound });
  const reboundPost = await request(
    port,
    'POST',
    '/_sim/reset',
    { host: rebound, origin: `http://${rebound}`, 'content-type': 'application/json' },
    '{}',
  );
  const page = await request(port, 'GET', '/_sim/ui');
  await request(port, 'POST', '/_sim/reset', { 'content-type': 'application/json' }, '{}');
  return {
    scenario: 'cross-site',
    foreignTextPlainAdvance: advance.status,
    clockOffsetMsAfter: offsetAfter,
    foreignTextPlainFault: fault.status,
    faultRulesAfter: faults.rules.length,
    noOriginTextPlainAdvance: plain.status,
    reboundHostUsers: users.status,
    reboundHostReset: reboundPost.status,
    consoleFrameOptions: page.headers['x-frame-options'] ?? null,
    consoleFrameAncestors:
      /frame-ancestors [^;]+/.exec(String(page.headers['content-security-policy'] ?? ''))?.[0] ?? null,
  };
}

async function clock(port: number): Promise<Record<string, unknown>> {
  const json = { 'content-type': 'application/json' };
  const step = JSON.stringify({ ms: HUNDRED_YEARS_MS });
  const statuses = new Map<number, number>();
  for (let i = 0; i < 2_739; i++) {
    const { status } = await request(port, 'POST', '/_sim/clock/advance', json, step);
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
  }
  const lastAdvance = await request(port, 'POST', '/_sim/clock/advance', json, step);
  const message = JSON.stringify({ channel: 'RaceDayTrot', date: '2026-11-22', payload: {} });
  const after = {
    state: (await request(port, 'GET', '/_sim/state')).status,
    postMessage: (await request(port, 'POST', '/api/message', json, message)).status,
    catalog: (await request(port, 'GET', '/_sim/catalog')).status,
  };
  const reset = await request(port, 'POST', '/_sim/reset', json, '{}');
  return {
    scenario: 'clock',
    advanceStatuses: Object.fromEntries(statuses),
    lastAdvance: `${lastAdvance.status} ${lastAdvance.body.slice(0, 160)}`,
    after,
    reset: reset.status,
    clockOffsetMsAfterReset: await offset(port),
    postMessageAfterReset: (await request(port, 'POST', '/api/message', json, message)).status,
  };
}

async function main(): Promise<void> {
  for (const scenario of [crossSite, clock]) {
    const sim = await start();
    try {
      console.log(JSON.stringify(await scenario(sim.port)));
    } finally {
      sim.stop();
    }
  }
}

void main();
