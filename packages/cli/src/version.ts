import { readFileSync } from 'node:fs';
import path from 'node:path';

// Replaced with the root package.json's version by scripts/bundle.mjs (esbuild `define`), so the
// single-file bundle in the images knows it without a package.json beside it.
declare const __RACEDATA_VERSION__: string | undefined;

let cached: string | undefined;

/** The racedata-sim version: the root package.json's, as `--version` and GET /health report it. */
export function productVersion(): string {
  if (typeof __RACEDATA_VERSION__ === 'string') return __RACEDATA_VERSION__;
  return (cached ??= readRootVersion());
}

function readRootVersion(): string {
  // dist/ and src/ both sit three levels below the root: packages/cli/<dir>/file.js
  const file = path.resolve(__dirname, '..', '..', '..', 'package.json');
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as { version?: unknown };
    return typeof parsed.version === 'string' ? parsed.version : 'unknown';
  } catch (err) {
    // Run from a copy without the root package.json: the version is all that is lost.
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'unknown';
    throw err;
  }
}
