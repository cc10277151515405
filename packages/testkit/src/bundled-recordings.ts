import { existsSync } from 'node:fs';
import path from 'node:path';

/** The recordings shipped with racedata-sim (`recordings/` at the repository root). */
export function bundledRecordingsDir(): string | undefined {
  // dist/ and src/ both sit three levels below the root: packages/testkit/<dir>/file.js
  const dir = path.resolve(__dirname, '..', '..', '..', 'recordings');
  return existsSync(dir) ? dir : undefined;
}
