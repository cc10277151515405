import path from 'node:path';
import type { BenchContext } from '../context';
import { startChild, type ChildServer } from './child-server';

export type SimKind = 'json' | 'legacy';

export interface SimStartOptions {
  readonly settings?: Record<string, unknown>;
  /** Extra legacy users (u1..uN) so one Durable message to `id` fills N queues. */
  readonly extraUsers?: number;
  readonly maxOldSpaceMb?: number;
}

export interface Started {
  readonly server: ChildServer;
}

/** Starts a simulator under test in its own process (built code, or source via tsx). */
export async function startSim(
  ctx: BenchContext,
  kind: SimKind,
  options: SimStartOptions = {},
): Promise<Started> {
  const env: Record<string, string> = {
    BENCH_SETTINGS: JSON.stringify(options.settings ?? {}),
    BENCH_EXTRA_USERS: String(options.extraUsers ?? 0),
  };
  // Without a build, tsx resolves @racedata/* to the sources (tsconfig.test.json paths).
  if (ctx.simSource === 'src') env.TSX_TSCONFIG_PATH = path.join(ctx.root, 'tsconfig.test.json');
  const server = await startChild({
    name: `${kind} simulator`,
    entry: `bench/src/servers/${kind}-sim-server.ts`,
    root: ctx.root,
    env,
    ...(options.maxOldSpaceMb && { maxOldSpaceMb: options.maxOldSpaceMb }),
  });
  return { server };
}

export type BaselineKind = 'bare-forwarder' | 'bare-broadcast' | 'bare-static';

export function startBaseline(ctx: BenchContext, kind: BaselineKind): Promise<ChildServer> {
  return startChild({ name: kind, entry: `bench/src/baselines/${kind}.ts`, root: ctx.root });
}
