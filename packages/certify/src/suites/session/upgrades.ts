import type { ScenarioContext, TrafficOf } from '../../types';

export type Upgrade = TrafficOf<'upgrade'>;

/** Upgrade requests to any of `paths` at or after `since` (ignoring one trailing slash). */
export function upgradesTo(ctx: ScenarioContext, paths: readonly string[], since = 0): Upgrade[] {
  const wanted = new Set(paths.map(trimSlash));
  return ctx.traffic.of('upgrade', since).filter((e) => wanted.has(trimSlash(e.path)));
}

function trimSlash(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}
