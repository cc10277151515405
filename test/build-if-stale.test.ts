import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// `npm start` builds only when the build's inputs are newer than its outputs
// (scripts/build-if-stale.mjs), so a start right after `npm ci` goes straight to the simulators.
// Here on a small tree of its own, with the times set by hand: no clock, no build.
const SCRIPT = path.resolve(__dirname, '..', 'scripts', 'build-if-stale.mjs');

let root: string;

/** What the script says of a tree: undefined when no build is needed, else the reason. */
function staleReason(tree: string): string | undefined {
  const result = spawnSync(process.execPath, [SCRIPT, '--check', tree], { encoding: 'utf8' });
  const said = result.stdout.trim();
  expect(result.status).toBe(said === 'current' ? 0 : 1);
  return said === 'current' ? undefined : said;
}

const OUTPUTS = [
  'packages/cli/dist/racedata-sim.cjs',
  'packages/cli/dist/racedata-sim.on-demand.js',
  'packages/testkit/dist/racedata-sim.cjs',
  'packages/testkit/dist/testcontainers.cjs',
];

function write(file: string, seconds: number): void {
  const full = path.join(root, file);
  mkdirSync(path.dirname(full), { recursive: true });
  writeFileSync(full, '');
  utimesSync(full, seconds, seconds);
}

beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'build-if-stale-'));
  for (const file of [
    'package.json',
    'scripts/bundle.mjs',
    'packages/core/package.json',
    'packages/core/src/a/b.ts',
  ]) {
    write(file, 1000);
  }
  for (const file of OUTPUTS) write(file, 2000);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

test('outputs newer than every input: no build', () => {
  expect(staleReason(root)).toBeUndefined();
});

test('a source changed since the build (however deep): build, naming it', () => {
  write('packages/core/src/a/b.ts', 3000);
  expect(staleReason(root)).toBe('packages/core/src/a/b.ts changed since the last build');
});

test('a manifest or build script changed: build', () => {
  write('scripts/bundle.mjs', 3000);
  expect(staleReason(root)).toMatch(/^scripts\/bundle\.mjs/);
  write('scripts/bundle.mjs', 1000);
  write('package.json', 3000);
  expect(staleReason(root)).toMatch(/^package\.json/);
});

test('an output missing or older than a source: build', () => {
  write('packages/testkit/dist/testcontainers.cjs', 500);
  expect(staleReason(root)).toMatch(/changed since the last build$/);
  rmSync(path.join(root, 'packages/cli/dist/racedata-sim.cjs'));
  expect(staleReason(root)).toBe('packages/cli/dist/racedata-sim.cjs is missing');
});
