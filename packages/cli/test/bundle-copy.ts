import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(__dirname, '..', '..', '..');
const builtBundle = path.join(root, 'packages', 'cli', 'dist', 'racedata-sim.cjs');
export const ON_DEMAND_FILE = 'racedata-sim.on-demand.js';
const builtOnDemand = path.join(root, 'packages', 'cli', 'dist', ON_DEMAND_FILE);
const loader = path.join(root, 'packages', 'cli', 'bin', 'code-cache.js');

export interface BundleCopy {
  /** The copy's path (its code cache is `${bundle}.v8cache`). */
  readonly bundle: string;
  /**
   * Runs the copy's CLI with `args` through the npm bin's loader, in a process of its own, after
   * `prelude` (lines of script run first). Killed after the test if still running.
   */
  run(args: readonly string[], prelude?: readonly string[]): ChildProcess;
}

/**
 * Each test gets its own copy of the built bundle in a temporary directory, so its code cache is
 * its own and the repository's (which every other CLI start in the suite may write) is never
 * touched. Call at the top of a test file: it registers the hooks that make and remove it.
 */
export function bundleCopyPerTest(prefix: string): BundleCopy {
  let dir: string | undefined;
  let bundle: string | undefined;
  const children: ChildProcess[] = [];
  let runs = 0;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), prefix));
    bundle = path.join(dir, 'racedata-sim.cjs');
    copyFileSync(builtBundle, bundle);
    // The bundle reads the modules a start never runs from this file beside it.
    copyFileSync(builtOnDemand, path.join(dir, ON_DEMAND_FILE));
  });
  afterEach(() => {
    for (const child of children.splice(0))
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  const current = () => {
    if (!bundle) throw new Error('the bundle copy exists only inside a test');
    return bundle;
  };
  return {
    get bundle() {
      return current();
    },
    run(args, prelude = []) {
      const script = [
        ...prelude,
        `require(${JSON.stringify(loader)}).runBundle(${JSON.stringify(current())});`,
      ];
      // A file, as the npm bin is, not `node -e`: Node's -e loads builtins (node:module) of its own.
      const file = path.join(path.dirname(current()), `run-${++runs}.js`);
      writeFileSync(file, script.join('\n'));
      const child = spawn(process.execPath, [file, ...args], {
        env: { ...process.env, LOG_LEVEL: 'silent' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.push(child);
      return child;
    },
  };
}
