import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { BenchContext } from '../context';
import type { ProfileSummary } from '../types';
import type { ChildServer } from './child-server';
import { summariseProfile } from './profile';
import { startProbedSimulator, type SimKind, type ProbedSimulatorOptions } from './simulator-process';

export interface ProfiledDrive {
  /** Connects clients and the like; not profiled. */
  setup(server: ChildServer): Promise<void>;
  /** The load of the measure; profiled. */
  run(server: ChildServer): Promise<void>;
  teardown(): void | Promise<void>;
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
): Promise<ProfileSummary> {
  ctx.log(`  profiling ${subject}`);
  const dir = path.join(ctx.rawDir, 'profiles');
  mkdirSync(dir, { recursive: true });
  const slug = subject
    .replace(/[^a-z0-9]+/gi, '-')
    .replace(/^-|-$/g, '')
    .toLowerCase();
  const file = path.join(dir, `${++counter}-${slug}.cpuprofile`);
  const server = await startProbedSimulator(ctx, kind, options);
  try {
    await drive.setup(server);
    await server.call('profile-start');
    await drive.run(server);
    await server.call('profile-stop', { file });
  } finally {
    await drive.teardown();
    await server.close();
  }
  return summariseProfile(file, subject, ctx.root);
}
