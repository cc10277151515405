import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The folder holding README.md, CHANGELOG.md and docs/, which the simulators serve at
 * /_sim/docs/ for the console's links: the repository root in a checkout (packages/cli/<dir>/),
 * /app in the container images (/app/dist/, docker/*.Dockerfile). The npm package leaves the
 * docs out, so there it is undefined and the pages answer 404 saying where to read them.
 */
export function docsRoot(): string | undefined {
  const candidates = [path.resolve(__dirname, '..', '..', '..'), path.resolve(__dirname, '..')];
  return candidates.find((dir) => existsSync(path.join(dir, 'docs', 'console.md')));
}
