// Requests a hold or delay fault rule keeps waiting, abandoned by their clients: does the
// simulator let them go? Starts `racedata-sim json` as its own process (build first:
// `npm run build`), then for each rule type opens N requests under the rule, destroys every
// client, and prints the heap (after a full GC, see gc-on-signal.cjs) and the held count (GET /metrics) after each step.
// Usage: node bench/probes/fault-wait-leak.mjs [N=3000]
import { spawn } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const N = Number(process.argv[2] ?? 3000);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const child = spawn(
  process.execPath,
  [
    '--expose-gc',
    '--require',
    path.join(root, 'bench/probes/gc-on-signal.cjs'),
    path.join(root, 'packages/cli/bin/racedata-sim.js'),
    'json',
    '--port',
    '0',
    '--host',
    '127.0.0.1',
  ],
  { env: { ...process.env, LOG_LEVEL: 'silent' }, stdio: ['ignore', 'pipe', 'inherit'] },
);
const port = await new Promise((resolve) => {
  let out = '';
  child.stdout.on('data', (c) => {
    out += c;
    const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
    if (m) resolve(Number(m[1]));
  });
});
const base = `http://127.0.0.1:${port}`;
const json = (method, p, body) =>
  fetch(base + p, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body && JSON.stringify(body),
  }).then((r) => r.json());
const metrics = async () => {
  child.kill('SIGUSR2');
  await new Promise((r) => setTimeout(r, 200));
  const text = await (await fetch(`${base}/metrics`)).text();
  const value = (name) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)`, 'm').exec(text)?.[1] ?? NaN);
  const waiting = [...text.matchAll(/^racedata_fault_waiting_requests\{[^}]*\} (\S+)/gm)].reduce(
    (s, m) => s + Number(m[1]),
    0,
  );
  return {
    heapMB: +(value('nodejs_heap_size_used_bytes') / 2 ** 20).toFixed(1),
    rssMB: +(value('process_resident_memory_bytes') / 2 ** 20).toFixed(1),
    waiting: text.includes('racedata_fault_waiting_requests') ? waiting : 'no gauge',
  };
};
const until = async (cond) => {
  for (let i = 0; i < 2000 && !(await cond()); i++) await new Promise((r) => setTimeout(r, 10));
};
const settle = () => new Promise((r) => setTimeout(r, 1000));

for (const action of [{ type: 'hold' }, { type: 'delay', ms: 86_400_000 }]) {
  const rule = await json('POST', '/_sim/faults', { match: { transport: 'events' }, action });
  const before = await metrics();
  const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  const requests = [];
  for (let i = 0; i < N; i++) {
    const req = http.get(`${base}/customerapi/events?lastEventId=0`, {
      agent,
      headers: { authorization: 'Bearer dGVzdHVzZXI=' },
    });
    req.on('error', () => undefined);
    requests.push(req);
  }
  await until(
    async () => (await json('GET', '/_sim/faults')).rules.find((r) => r.id === rule.id)?.fired >= N,
  );
  const held = await metrics();
  for (const req of requests) req.destroy();
  await settle();
  const abandoned = await metrics();
  await json('DELETE', `/_sim/faults/${rule.id}`);
  await settle();
  const removed = await metrics();
  await json('POST', '/_sim/reset');
  await settle();
  const reset = await metrics();
  console.log(JSON.stringify({ action: action.type, N, before, held, abandoned, removed, reset }));
}
child.kill('SIGTERM');
