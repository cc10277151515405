import type { BenchContext } from '../context';
import { startChild, type ChildServer } from '../lib/child-server';

export type BaselineKind = 'bare-forwarder' | 'bare-broadcast' | 'bare-static';

/** A bare Node server doing a measure's job with no logic, in its own process (bench/src/baselines). */
export function startBaseline(ctx: BenchContext, kind: BaselineKind): Promise<ChildServer> {
  return startChild({
    name: kind.replace('-', ' '),
    entry: `bench/src/baselines/${kind}.ts`,
    root: ctx.root,
  });
}
