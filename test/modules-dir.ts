import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A directory of CommonJS modules made for each test, and a way to run scripts in it. */
export interface ModulesDir {
  readonly dir: string;
  /** Runs `source` (an ES module) with node in the directory; its stdout, or throws with stderr. */
  node(source: string): string;
}

/**
 * Each test of the file gets a fresh directory holding `modules` (file name to text), removed
 * after it: the bundling scripts' tests (scripts/bundle-*.mjs) bundle and run them there. Call at
 * the top of a test file: it registers the hooks.
 */
export function modulesDirPerTest(prefix: string, modules: Readonly<Record<string, string>>): ModulesDir {
  let dir: string | undefined;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), prefix));
    for (const [name, text] of Object.entries(modules)) writeFileSync(path.join(dir, name), text);
  });
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  const current = () => {
    if (!dir) throw new Error('the modules directory exists only inside a test');
    return dir;
  };
  return {
    get dir() {
      return current();
    },
    node(source) {
      const result = spawnSync(process.execPath, ['--input-type=module', '-e', source], {
        cwd: current(),
        encoding: 'utf8',
      });
      if (result.status !== 0) throw new Error(result.stderr);
      return result.stdout;
    },
  };
}
