import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * A simulator package for a server entry: this checkout's, resolved as any import, or, when the
 * harness set BENCH_SIM_ROOT (the before side of `npm run bench -- --before ROOT`), the build of
 * that checkout, so both sides run the same harness against different simulators.
 */
export async function simPackage<T>(
  name: 'core' | 'json-sim' | 'legacy-sim',
  own: () => Promise<T>,
): Promise<T> {
  const root = process.env.BENCH_SIM_ROOT;
  if (!root) return own();
  const load = createRequire(path.join(root, 'package.json'));
  return load(path.join(root, 'packages', name, 'dist', 'index.js')) as T;
}
