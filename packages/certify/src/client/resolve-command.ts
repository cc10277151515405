import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { CertifyError } from '../errors';

/**
 * Finds the client command the way the shell would (a path, or a name on PATH) before anything
 * starts, so a typo is a usage error with a clear message rather than a client that "exited".
 */
export function resolveCommand(command: string, pathValue: string | undefined, cwd: string): string {
  if (command.trim() === '') {
    throw new CertifyError('CLIENT_NOT_FOUND', { command, detail: 'is empty (give one after --)' });
  }
  if (command.includes('/') || isAbsolute(command)) {
    const full = resolve(cwd, command);
    if (!isRunnable(full)) {
      throw new CertifyError('CLIENT_NOT_FOUND', { command, detail: 'is not an executable file' });
    }
    return full;
  }
  for (const dir of (pathValue ?? '').split(delimiter)) {
    if (dir === '') continue;
    const full = join(resolve(cwd, dir), command);
    if (isRunnable(full)) return full;
  }
  throw new CertifyError('CLIENT_NOT_FOUND', { command, detail: 'was not found on PATH' });
}

function isRunnable(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
