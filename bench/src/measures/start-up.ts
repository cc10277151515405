import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { shouldProfile, type BenchContext } from '../context';
import { summariseProfile } from '../lib/profile';
import { trackProcess } from '../lib/child-server';
import { compare } from '../lib/compare';
import { freePort } from '../lib/http-client';
import { startCliSimulator, type SimKind } from '../lib/simulator-process';
import { median } from '../lib/stats';
import { peerDataFiles, stopProcess, waitForHealth } from '../peer-tools/peer-run';
import { PEER_NAMES, spawnPeer } from '../peer-tools/peer-servers';
import type { Comparison, Figure, MeasureBody, ProfileSummary } from '../types';

interface Subject {
  readonly name: string;
  /** Starts it; resolves once GET /health answers 200 with the time that took, and stops it. */
  timeStart(nodeArgs?: string[]): Promise<number>;
}

// The smallest server that answers /health: what `node -e` starts before any of our code loads.
const BARE_SCRIPT =
  "require('http').createServer((q,s)=>s.end('{\"status\":\"ok\"}')).listen(+process.argv[1],'127.0.0.1')";

/** A server that cannot listen on port 0 and say so: timed on a free port handed to it. */
function spawned(name: string, spawn: (port: number) => ChildProcess): Subject {
  return {
    name,
    async timeStart() {
      const port = await freePort();
      const started = performance.now();
      const child = spawn(port);
      try {
        await waitForHealth(port, () => child.exitCode === null, 60_000);
        return performance.now() - started;
      } finally {
        await stopProcess(child);
      }
    },
  };
}

/** Our simulator, started the one way the harness starts it, with the CLI's default log level. */
function simulator(root: string, kind: SimKind): Subject {
  return {
    name: kind,
    async timeStart(nodeArgs = []) {
      const started = performance.now();
      const sim = await startCliSimulator(root, kind, { nodeArgs, env: { LOG_LEVEL: 'info' } });
      try {
        await waitForHealth(sim.port, () => !sim.exited(), 60_000);
        return performance.now() - started;
      } finally {
        await sim.stop();
      }
    },
  };
}

export async function startUp(ctx: BenchContext): Promise<MeasureBody> {
  const { repeats } = ctx.config.startUp;
  const notes: string[] = [];
  const ours = (['json', 'legacy'] as const).map((kind) => simulator(ctx.simRoot, kind));
  const bare = spawned('bare Node', (port) =>
    trackProcess(spawn(process.execPath, ['-e', BARE_SCRIPT, String(port)], { stdio: 'ignore' })),
  );
  const peers: Subject[] = [];
  if (ctx.peers) {
    const tools = ctx.peers;
    const files = peerDataFiles(path.join(ctx.rawDir, 'start-up'), '{"status":"success"}');
    for (const name of PEER_NAMES)
      peers.push(spawned(name, (port) => spawnPeer(tools, name, files[name], port)));
  } else {
    notes.push('peers skipped: not installed (quick mode does not install them)');
  }
  // The npm bin writes V8's code cache at the exit of a start that found none (code-cache.js):
  // one untimed-as-median start per simulator, from no cache, is what a first start costs.
  const firstStarts = new Map<string, number>();
  rmSync(path.join(ctx.simRoot, 'packages', 'cli', 'dist', 'racedata-sim.cjs.v8cache'), { force: true });
  for (const subject of ours) {
    try {
      firstStarts.set(subject.name, await subject.timeStart());
    } catch (err) {
      notes.push(`${subject.name} first start: ${(err as Error).message}`);
    }
  }
  const subjects = [...ours, bare, ...peers];
  const times = new Map<string, number[]>(subjects.map((s) => [s.name, []]));
  ctx.log(`  ${subjects.map((s) => s.name).join(', ')}: ${repeats} starts each, interleaved`);
  for (let r = 0; r < repeats; r++) {
    for (let k = 0; k < subjects.length; k++) {
      const subject = subjects[(k + r) % subjects.length] as Subject;
      try {
        const ms = await subject.timeStart();
        times.get(subject.name)?.push(ms);
        ctx.log(`    ${subject.name}: ${Math.round(ms)} ms`);
      } catch (err) {
        notes.push(`${subject.name}: ${(err as Error).message}`);
      }
    }
  }
  const med = (name: string) => (times.get(name)?.length ? median(times.get(name) as number[]) : null);
  const peerFigures: Figure[] = PEER_NAMES.map((name) => ({
    name,
    value: med(name),
    ...(med(name) === null && { note: ctx.peers ? 'failed' : 'not installed' }),
  }));
  const comparisons: Comparison[] = ours.map(({ name }) =>
    compare({
      scenario: `${name} simulator (racedata-sim ${name}), median of ${repeats}`,
      unit: 'ms',
      ours: med(name),
      bare: med('bare Node'),
      peers: peerFigures,
      better: 'lower',
      bound: 1.5,
      beatPeers: true,
      target: 'within 1.5x of bare node and faster than every peer',
      note: `min ${Math.round(Math.min(...(times.get(name) ?? [NaN])))} ms`,
    }),
  );
  for (const [name, ms] of firstStarts) {
    comparisons.push(
      compare({
        scenario: `${name} simulator, first start after a build (no code cache yet)`,
        unit: 'ms',
        ours: Math.round(ms * 100) / 100,
        bare: med('bare Node'),
        better: 'lower',
        note: 'one start; it writes the code cache every later start uses',
      }),
    );
  }
  const profiles: ProfileSummary[] = [];
  for (const [i, row] of comparisons.entries()) {
    const subject = ours[i];
    if (!subject || !shouldProfile(ctx, row.verdict)) continue;
    ctx.log(`  profiling the ${subject.name} simulator's start`);
    mkdirSync(path.join(ctx.rawDir, 'profiles'), { recursive: true });
    const dir = mkdtempSync(path.join(ctx.rawDir, 'profiles', `start-up-${subject.name}-`));
    // The CLI exits on SIGTERM through process.exit, which is when --cpu-prof writes its file.
    await subject.timeStart(['--cpu-prof', `--cpu-prof-dir=${dir}`]);
    // The only file there: the profile --cpu-prof wrote at the exit.
    const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
    const what = `start of racedata-sim ${subject.name} (whole process, node --cpu-prof)`;
    if (file) profiles.push(summariseProfile(path.join(dir, file), what, ctx.root));
  }
  return {
    method: [
      'From spawning the process until GET /health on its port answers 200 (polled every 3 ms), each subject started as a user would: `node packages/cli/bin/racedata-sim.js json|legacy --port 0 --host 127.0.0.1` (built code, default settings; the port read from its banner), `node -e` with a bare http server, `mockoon-cli start --data env.json`, `json-server db.json`.',
      `${repeats} starts per subject, the order rotating each round; the figure is the median.`,
      'Before them, one start of each simulator from no code cache (the first start after a build, which writes the cache; see packages/cli/bin/code-cache.js) is reported on its own row.',
    ],
    comparisons,
    notes,
    profiles,
  };
}
