/**
 * What LOG_REQUESTS costs the JSON direct read path, against bare Node serving the same page:
 *   npx tsx bench/first-hour-probe.ts [seconds=3] [rounds=3]
 * Each round runs bare Node, the simulator with request logging off and with it on (JSON lines
 * to /dev/null), each for `seconds` at 10 connections; medians are printed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { load } from './src/lib/load';

const BIN = path.resolve(__dirname, '..', 'packages', 'cli', 'bin', 'racedata-sim.js');
const PAGE = '/customerapi/events?lastEventId=0&limit=10';
const AUTH = { authorization: 'Bearer YWxsdXNlcg==' };

function started(child: ChildProcess, pattern: RegExp): Promise<number> {
  return new Promise((resolve, reject) => {
    let text = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const match = pattern.exec(text);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${text}`)));
  });
}

// Settings by environment, so the probe also runs against a build from before LOG_REQUESTS.
async function simulator(env: Record<string, string>): Promise<{ port: number; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    [BIN, 'json', '--port', '0', '--host', '127.0.0.1', '--seed', '1000'],
    {
      stdio: ['ignore', 'pipe', 'ignore'],
      env: { ...process.env, LOG_LEVEL: 'info', LOG_FORMAT: 'json', ...env },
    },
  );
  return { port: await started(child, /listening on http:\/\/127\.0\.0\.1:(\d+)/), child };
}

async function bareNode(body: string): Promise<{ port: number; child: ChildProcess }> {
  const code = `const b=Buffer.from(${JSON.stringify(body)});require('http').createServer((q,r)=>{r.writeHead(200,{'content-type':'application/json; charset=utf-8','content-length':b.length});r.end(b)}).listen(0,'127.0.0.1',function(){console.log('port '+this.address().port)})`;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'ignore'] });
  return { port: await started(child, /port (\d+)/), child };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const seconds = Number(process.argv[2] ?? 3);
  const rounds = Number(process.argv[3] ?? 3);
  const off = await simulator({});
  const on = await simulator({ LOG_REQUESTS: 'true' });
  const page = await (await fetch(`http://127.0.0.1:${off.port}${PAGE}`, { headers: AUTH })).text();
  const bare = await bareNode(page);
  const results: Record<string, number[]> = { bare: [], off: [], on: [] };
  for (let round = 0; round < rounds; round++) {
    for (const [name, subject] of [
      ['bare', bare],
      ['off', off],
      ['on', on],
    ] as const) {
      const r = await load({ port: subject.port, connections: 10, seconds, path: PAGE, headers: AUTH });
      if (r.bad > 0) throw new Error(`${name}: ${r.bad} bad answers`);
      results[name]!.push(r.requestsPerSecond);
    }
  }
  for (const child of [off.child, on.child, bare.child]) child.kill('SIGTERM');
  const base = median(results.bare!);
  for (const [name, xs] of Object.entries(results)) {
    const m = median(xs);
    console.log(
      `${name.padEnd(4)} ${Math.round(m)} req/s  (${(m / base).toFixed(2)} of bare Node)  runs: ${xs.map(Math.round).join(', ')}`,
    );
  }
  console.log(`page: ${Buffer.byteLength(page)} bytes`);
}

void main();
