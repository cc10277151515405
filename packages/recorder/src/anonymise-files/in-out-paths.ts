import { promises as fs } from 'node:fs';
import path from 'node:path';
import { RECORDING_KINDS, shownName, type RecordingKind } from '@racedata/core';
import { recorderError } from '../errors';

const invalid = (message: string) => recorderError('ANONYMISE_INPUT_INVALID', message);

/**
 * Where a path really is: symbolic links followed as far as it exists, the rest (what would be
 * created) appended. Two paths are compared by this, so a link or `..` cannot hide that one is
 * inside the other.
 */
export async function realPath(target: string): Promise<string> {
  const absolute = path.resolve(target);
  const missing: string[] = [];
  let existing = absolute;
  for (;;) {
    try {
      return path.join(await fs.realpath(existing), ...missing.reverse());
    } catch {
      const parent = path.dirname(existing);
      if (parent === existing) return absolute;
      missing.push(path.basename(existing));
      existing = parent;
    }
  }
}

/** True when `inner` is `outer` or below it. */
export function within(inner: string, outer: string): boolean {
  const relative = path.relative(outer, inner);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/**
 * IN and OUT as anonymise may use them: IN a directory, OUT nowhere inside it (IN is never
 * written to, and its own output would be read back as input next time), and IN's json/ and
 * legacy/ folders really inside IN (a link to elsewhere is refused: anonymise reads what IN
 * holds, nothing it points at). Returns IN's real path and the kinds it holds.
 */
export async function checkInOut(
  inDir: string,
  outDir: string,
): Promise<{ realIn: string; kinds: RecordingKind[] }> {
  const stat = await fs.stat(inDir).catch(() => undefined);
  if (!stat?.isDirectory()) throw invalid(`recordings directory ${shownName(inDir)} does not exist`);
  const realIn = await fs.realpath(inDir);
  const realOut = await realPath(outDir);
  if (realOut === realIn) {
    throw invalid(`OUT must differ from IN (${shownName(inDir)}): anonymise never overwrites its input`);
  }
  if (within(realOut, realIn)) {
    throw invalid(
      `OUT (${shownName(outDir)}) is inside IN (${shownName(inDir)}): anonymise never writes into its input; give an OUT outside it`,
    );
  }
  const kinds: RecordingKind[] = [];
  for (const kind of RECORDING_KINDS) {
    const folder = path.join(inDir, kind);
    const link = await fs.lstat(folder).catch(() => undefined);
    if (link === undefined) continue;
    if (link.isSymbolicLink()) {
      const target = await fs.realpath(folder).catch(() => undefined);
      if (target === undefined || !within(target, realIn)) {
        throw invalid(
          `${shownName(folder)} is a symbolic link to ${shownName(target ?? (await fs.readlink(folder)))}, outside IN: anonymise reads only what is inside IN (copy the files in)`,
        );
      }
    }
    if ((await fs.stat(folder).catch(() => undefined))?.isDirectory()) kinds.push(kind);
  }
  return { realIn, kinds };
}

/** A temporary output of anonymise (temp-file.ts): `.<name>.<pid>.tmp`. */
const TEMP_NAME = /^\..+\.(\d+)\.tmp$/;

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it runs, as another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the temporary files an interrupted run (a kill -9, a power cut) left in OUT/json and
 * OUT/legacy: hidden, so no replay read them, but litter. A run still going (its process alive)
 * keeps its own. Returns what was removed.
 */
export async function removeStaleTemps(outDir: string): Promise<string[]> {
  const removed: string[] = [];
  for (const kind of RECORDING_KINDS) {
    const folder = path.join(outDir, kind);
    const names = await fs.readdir(folder).catch(() => [] as string[]);
    for (const name of names) {
      const pid = Number(TEMP_NAME.exec(name)?.[1] ?? Number.NaN);
      if (!Number.isSafeInteger(pid) || pid === process.pid || running(pid)) continue;
      await fs.rm(path.join(folder, name), { force: true });
      removed.push(path.join(kind, name));
    }
  }
  return removed;
}
