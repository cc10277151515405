// `npm start` and friends: build only when something the build reads is newer than what it
// writes. Right after `npm ci` (whose `prepare` builds) or a previous start, the bundle is current
// and a start goes straight to the simulators instead of rebuilding for a quarter of a minute.
// `npm run build` still builds unconditionally.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** What `npm run build` writes that a start runs. */
const OUTPUTS = [
  'packages/cli/dist/racedata-sim.cjs',
  'packages/cli/dist/racedata-sim.on-demand.js',
  'packages/testkit/dist/racedata-sim.cjs',
  'packages/testkit/dist/testcontainers.cjs',
];

/** What the build reads: every package's sources and manifest, the build scripts and configs. */
function inputs(root) {
  const files = ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.base.json'];
  for (const name of readdirSync(path.join(root, 'scripts'))) {
    if (/^(bundle.*|prime-code-cache)\.mjs$/.test(name)) files.push(`scripts/${name}`);
  }
  for (const pkg of readdirSync(path.join(root, 'packages'))) {
    for (const name of ['package.json', 'tsconfig.json', 'build.mjs']) files.push(`packages/${pkg}/${name}`);
    files.push(...walk(root, `packages/${pkg}/src`));
  }
  return files;
}

function walk(root, dir) {
  let entries;
  try {
    entries = readdirSync(path.join(root, dir), { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((e) => (e.isDirectory() ? walk(root, `${dir}/${e.name}`) : [`${dir}/${e.name}`]));
}

function mtime(root, file) {
  try {
    return statSync(path.join(root, file)).mtimeMs;
  } catch {
    return undefined;
  }
}

/** Why a build is needed, or undefined when the outputs are newer than every input. */
export function staleReason(root = ROOT) {
  const built = OUTPUTS.map((file) => [file, mtime(root, file)]);
  const missing = built.find(([, time]) => time === undefined);
  if (missing) return `${missing[0]} is missing`;
  const oldest = Math.min(...built.map(([, time]) => time));
  const newer = inputs(root).find((file) => (mtime(root, file) ?? 0) > oldest);
  return newer ? `${newer} changed since the last build` : undefined;
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === '--check') {
  // `--check [ROOT]`: say whether a build is needed, build nothing (exit 1 when one is).
  const reason = staleReason(process.argv[3] ?? ROOT);
  process.stdout.write(`${reason ?? 'current'}\n`);
  process.exitCode = reason === undefined ? 0 : 1;
} else if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const reason = staleReason();
  if (reason === undefined) {
    process.stderr.write('build is current: skipped (npm run build builds anyway)\n');
  } else {
    process.stderr.write(`building: ${reason}\n`);
    const npm = process.env.npm_execpath;
    const result = npm
      ? spawnSync(process.execPath, [npm, 'run', 'build'], { stdio: 'inherit' })
      : spawnSync('npm', ['run', 'build'], { stdio: 'inherit', shell: process.platform === 'win32' });
    process.exitCode = result.status ?? 1;
  }
}
