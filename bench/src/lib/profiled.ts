import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { BenchContext } from '../context';
import type { ProfileSummary } from '../types';
import type { ChildServer } from './child-server';
import { load } from './load';
import { summariseProfile } from './profile';
import type { ReadScenario } from './read-paths';
import { AUTH } from './payloads';
import { startProbedSimulator, type SimKind, type ProbedSimulatorOptions } from './simulator-process';

export interface ProfiledDrive {
  /** Connects clients and the like; not profiled. */
  setup(server: ChildServer): Promise<void>;
  /** The load of the measure; profiled. It may return the units of work it did. */
  run(server: ChildServer): Promise<number | void>;
  teardown?(): void;
}

let counter = 0;

/**
 * Reruns our side of a missed measure with V8's CPU profiler on (as node --cpu-prof) for the
 * duration of the load only, and summarises where the simulator spent its time.
 */
export async function profileSim(
  ctx: BenchContext,
  subject: string,
  kind: SimKind,
  options: ProbedSimulatorOptions,
  drive: ProfiledDrive,
): Promise<{ summary: ProfileSummary; units: number }> {
  ctx.log(`  profiling ${subject}`);
  const dir = path.join(ctx.rawDir, 'profiles');
  mkdirSync(dir, { recursive: true });
  const slug = subject
    .replace(/[^a-z0-9]+/gi, '-')
    .replace(/^-|-$/g, '')
    .toLowerCase();
  const file = path.join(dir, `${++counter}-${slug}.cpuprofile`);
  const server = await startProbedSimulator(ctx, kind, options);
  let units = 0;
  try {
    await drive.setup(server);
    await server.call('profile-start');
    units = (await drive.run(server)) ?? 0;
    await server.call('profile-stop', { file });
  } finally {
    drive.teardown?.();
    await server.close();
  }
  return { summary: summariseProfile(file, subject, ctx.root), units };
}

/**
 * Page reads of `scenario` for `seconds` (after `warmSeconds` not profiled), on a simulator
 * filled through its bus (the in-process preload).
 */
export function readDrive(
  scenario: ReadScenario,
  connections: number,
  seconds: number,
  warmSeconds = 0,
): ProfiledDrive {
  let next: () => string = () => '/';
  const read = (server: ChildServer, s: number) =>
    load({ port: server.port, path: next, headers: AUTH, connections, seconds: s });
  return {
    setup: async (server) => {
      const loaded = await server.call<{ lastEventId: number }>('preload', { count: scenario.events });
      next = scenario.paths(loaded.lastEventId).next;
      if (warmSeconds > 0) await read(server, warmSeconds);
    },
    run: async (server) => (await read(server, seconds)).requests,
  };
}
