// npm's `prepare`: builds what the package runs (dist/, the bundles, the public types), because
// npm installs a git dependency (`npm install git+https://…`) by cloning it, installing its
// dependencies and dev dependencies, running `prepare` and packing the result: without a build
// the clone has no dist/. npm runs it after `npm install` and `npm ci` here too, so a fresh clone
// is built once its install is done.
//
// package.json runs this file only when it exists: docker/*.Dockerfile install dependencies
// from the manifests alone, before any source or script is copied in, and build later.
import { spawnSync } from 'node:child_process';

const npm = process.env.npm_execpath;
const result = npm
  ? spawnSync(process.execPath, [npm, 'run', 'build'], { stdio: 'inherit' })
  : spawnSync('npm', ['run', 'build'], { stdio: 'inherit', shell: process.platform === 'win32' });
process.exitCode = result.status ?? 1;
