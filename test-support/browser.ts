/**
 * The browser the console's tests and screenshot drive: Debian's `chromium` package (installed
 * by .ci/run), never a downloaded one. Test code only.
 */
import { existsSync } from 'node:fs';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

/** The Chromium executable, or undefined when none is installed. */
export function findChromium(): string | undefined {
  return CANDIDATES.find((path) => existsSync(path));
}

/** Why the browser suite cannot run here, for the skip message. */
export const NO_CHROMIUM = `no Chromium at ${CANDIDATES.join(' or ')}; install Debian's package: apt-get install -y chromium`;
