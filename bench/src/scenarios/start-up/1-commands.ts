import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { PEER_NAMES, peerDataFiles, spawnPeer, startOnFreePort, type PeerName } from '../../harness/peers';
import { timedStart, trackProcess, type SimKind } from '../../harness/processes';
import { compare, med } from '../../harness/rows';
import type { BenchContext, Comparison, Figure, Scenario } from '../../types';

/** Starts something and resolves with the ms until it answered, having stopped it again. */
type Subject = () => Promise<number>;

// The smallest server that answers /health: what `node -e` starts before any of our code loads.
const BARE_SCRIPT =
  "require('http').createServer((q,s)=>s.end('{\"status\":\"ok\"}')).listen(+process.argv[1],'127.0.0.1')";

/** A server that cannot listen on port 0 and say so: timed on a free port handed to it. */
const spawned =
  (name: string, start: (port: number) => ChildProcess): Subject =>
  async () => {
    const server = await startOnFreePort(name, start);
    await server.stop();
    return server.ms;
  };

/** servers/in-process-start.cjs in a fresh process: the ms it measured from its first line. */
const inProcess =
  (mode: 'testkit' | 'bare', bundle: string): Subject =>
  async () => {
    const script = path.join(__dirname, '..', '..', 'servers', 'in-process-start.cjs');
    const { stdout } = await promisify(execFile)(process.execPath, [script, mode, bundle], {
      timeout: 60_000,
    });
    return (JSON.parse(stdout) as { ms: number }).ms;
  };

const KINDS: readonly SimKind[] = ['json', 'legacy'];
const TESTKIT = 'startSimulators() in-process';
const BARE_IN_PROCESS = 'bare Node in-process';

async function run(ctx: BenchContext) {
  const { repeats } = ctx.config.startUp;
  const notes: string[] = [];
  const bundle = path.join(ctx.simRoot, 'packages', 'testkit', 'dist', 'racedata-sim.cjs');
  const subjects = new Map<string, Subject>(KINDS.map((kind) => [kind, () => timedStart(ctx, kind)]));
  const bare = (port: number) =>
    trackProcess(spawn(process.execPath, ['-e', BARE_SCRIPT, String(port)], { stdio: 'ignore' }));
  subjects.set('bare Node', spawned('bare Node', bare));
  if (existsSync(bundle)) {
    subjects.set(TESTKIT, inProcess('testkit', bundle)).set(BARE_IN_PROCESS, inProcess('bare', bundle));
  } else notes.push(`${TESTKIT}: not measured, ${bundle} is missing`);
  if (ctx.peers) {
    const files = peerDataFiles(path.join(ctx.rawDir, 'start-up'), '{"status":"success"}');
    const tools = ctx.peers;
    const peer = (name: PeerName) => spawned(name, (port) => spawnPeer(tools, name, files[name], port));
    for (const name of PEER_NAMES) subjects.set(name, peer(name));
  } else notes.push('peers skipped: not installed (quick mode does not install them)');
  // The npm bin writes V8's code cache at the exit of a start that found none (code-cache.js):
  // one start per simulator from no cache, reported on its own, is what a first start costs.
  const firstStarts = new Map<SimKind, number>();
  rmSync(path.join(ctx.simRoot, 'packages', 'cli', 'dist', 'racedata-sim.cjs.v8cache'), { force: true });
  const start = (name: string, took: (ms: number) => unknown) =>
    (subjects.get(name) as Subject)().then(took, (err: Error) => notes.push(`${name}: ${err.message}`));
  for (const kind of KINDS) await start(kind, (ms) => firstStarts.set(kind, ms));
  const names = [...subjects.keys()];
  const times = new Map<string, number[]>(names.map((name) => [name, []]));
  ctx.log(`  ${names.join(', ')}: ${repeats} starts each, interleaved`);
  for (let r = 0; r < repeats; r++)
    for (let k = 0; k < names.length; k++) {
      const name = names[(k + r) % names.length] as string;
      await start(name, (ms) => times.get(name)?.push(ms));
    }
  const median = (name: string) => med(times.get(name) ?? []);
  const peers: Figure[] = PEER_NAMES.map((name) => ({
    ...{ name, value: median(name) },
    ...(median(name) === null && { note: ctx.peers ? 'failed' : 'not installed' }),
  }));
  const min = (name: string) => `min ${Math.round(Math.min(...(times.get(name) ?? [NaN])))} ms`;
  const row = { unit: 'ms', better: 'lower', bare: median('bare Node') } as const;
  const rows: Comparison[] = KINDS.map((kind) =>
    compare({
      ...row,
      scenario: `${kind} simulator (racedata-sim ${kind}), median of ${repeats}`,
      ...{ ours: median(kind), peers, bound: 1.3, beatPeers: true, note: min(kind) },
      target: 'within 1.3x of bare node and faster than every peer',
    }),
  );
  if (times.has(TESTKIT))
    rows.push(
      compare({
        ...{ ...row, ours: median(TESTKIT), bare: median(BARE_IN_PROCESS), bareName: BARE_IN_PROCESS },
        scenario: `${TESTKIT}: both simulators, from loading the test kit to both answering /health, median of ${repeats}`,
        // From the first runs (2026-11-28, a shared machine): 10-16x, loading the test kit's
        // bundle about half of it.
        ...{ bound: 15, target: '<= 15x bare Node in-process' },
        note: `in a fresh process (as a test runner's worker); the baseline loads node:http and starts two servers; ${min(TESTKIT)}`,
      }),
    );
  const note = 'one start; it writes the code cache every later start uses';
  const first = (kind: string) => `${kind} simulator, first start after a build (no code cache yet)`;
  for (const [kind, ms] of firstStarts) rows.push(compare({ ...row, scenario: first(kind), ours: ms, note }));
  return { rows, notes };
}

export default {
  peers: true,
  method: ({ config }) => [
    'From spawning the process until GET /health on its port answers 200 (polled every 3 ms), each subject started as a user would: `node packages/cli/bin/racedata-sim.js json|legacy --port 0 --host 127.0.0.1` (built code, default settings, LOG_LEVEL=info; the port read from its banner), `node -e` with a bare http server, `mockoon-cli start --data env.json`, `json-server db.json`.',
    'startSimulators() in-process: a fresh Node process (bench/src/servers/in-process-start.cjs) loads the test kit (the root package) and awaits startSimulators() with its defaults, both simulators, until both answer GET /health, timed from its first line; the bare equivalent, in the same kind of process, loads node:http and starts two servers until both answer.',
    `${config.startUp.repeats} starts per subject, the order rotating each round; the figure is the median.`,
    'Before them, one start of each simulator from no code cache (the first start after a build, which writes the cache; see packages/cli/bin/code-cache.js) is reported on its own row.',
  ],
  run,
} satisfies Scenario;
