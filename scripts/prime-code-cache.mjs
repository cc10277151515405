// Writes the bundle's V8 code caches (packages/cli/bin/code-cache.js) when the container images
// are built, so a container's first start is as quick as every later one: its /app is not
// writable by the user it runs as, and a cache written at exit would be lost with the container
// anyway.
//
// First, both simulators run once in one process, playing a race day so its code is in the cache
// too (RACE_DAY in the image); each answers /health, then the process stops and writes the cache
// of everything that start compiled. Then a second run asks for the pages a start leaves for later
// (/metrics, the API document, the console's script), and a `--help` run for the full command
// line: they load the bundle's on-demand part, whose own cache they write. The bundle's cache
// already covers their starts, so they leave it as the first run wrote it: what those pages
// compile in the bundle would be read at every container's start.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(root, 'packages/cli/bin/racedata-sim.js');
const cache = path.join(root, 'packages/cli/dist/racedata-sim.cjs.v8cache');
const onDemandCache = path.join(root, 'packages/cli/dist/racedata-sim.on-demand.js.v8cache');
const BOTH = [
  'all',
  '--json-port',
  '0',
  '--legacy-port',
  '0',
  '--host',
  '127.0.0.1',
  '--log-level',
  'silent',
];

function fail(message) {
  console.error(`prime-code-cache: ${message}`);
  process.exit(1);
}

/** Starts the CLI with `args`, asks each simulator for `urls` (each must answer 200), stops it. */
async function serve(args, urls) {
  const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  const deadline = setTimeout(() => {
    child.kill('SIGKILL');
    fail('the simulators did not start within 30 s');
  }, 30_000);
  let out = '';
  let listening = false;
  const ports = await new Promise((resolve) => {
    child.stdout.on('data', (chunk) => {
      out += chunk.toString();
      const found = [...out.matchAll(/listening on http:\/\/127\.0\.0\.1:(\d+)/g)].map((m) => Number(m[1]));
      if (found.length === 2 && !listening) {
        listening = true;
        resolve(found);
      }
    });
    void exited.then((code) => {
      if (!listening) fail(`the simulators exited (${code}) before listening:\n${out}`);
    });
  });
  for (const url of urls)
    for (const port of ports) {
      const res = await fetch(`http://127.0.0.1:${port}${url}`);
      await res.arrayBuffer();
      if (res.status !== 200) fail(`GET ${url} on ${port} answered ${res.status}`);
    }
  child.kill('SIGTERM');
  const code = await exited;
  clearTimeout(deadline);
  if (code !== 0) fail(`the simulators exited with ${code} after SIGTERM`);
}

for (const file of [cache, onDemandCache]) rmSync(file, { force: true });
await serve([...BOTH, '--race-day', 'today', '--race-day-edge-cases', 'all'], ['/health']);
await serve(BOTH, ['/metrics', '/_sim/openapi.json', '/_sim/ui/console.js']);
try {
  execFileSync(process.execPath, [bin, '--help'], { stdio: 'ignore', timeout: 30_000 });
} catch (err) {
  fail(`racedata-sim --help failed: ${err.message}`);
}
for (const file of [cache, onDemandCache]) {
  if (!existsSync(file)) fail(`no code cache was written at ${path.relative(root, file)}`);
  console.log(`code cache: ${path.relative(root, file)}`);
}
