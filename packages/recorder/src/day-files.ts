import { createHash } from 'node:crypto';
import { closeSync, fdatasyncSync, fstatSync, mkdirSync, openSync, writeSync } from 'node:fs';
import path from 'node:path';

export type RecordingFolder = 'json' | 'legacy';

/** Where one line went: enough to find it again and check it is the same line (checkpoint.ts). */
export interface LinePlace {
  /** Relative to the recordings directory, e.g. `json/2026-05-11.jsonl`. */
  readonly file: string;
  readonly offset: number;
  readonly bytes: number;
  readonly sha: string;
}

export function lineSha(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex').slice(0, 32);
}

interface OpenFile {
  readonly fd: number;
  size: number;
  dirty: boolean;
}

/**
 * The day files of a recordings directory, `<folder>/<YYYY-MM-DD>.jsonl` by the UTC date of each
 * line's `at` (recordings/README.md: one file per recorded day). Each line is one write() of the
 * whole line and its newline, so a crash or a kill leaves every file ending on a complete line;
 * sync() makes what was written durable on disk (called every second and at the end).
 */
export class DayFiles {
  private readonly open = new Map<string, OpenFile>();
  private readonly written = new Set<string>();

  constructor(private readonly dir: string) {}

  /** Appends `line` (without its newline); `before` learns where it goes before it is written. */
  append(folder: RecordingFolder, at: string, line: string, before?: (place: LinePlace) => void): LinePlace {
    const file = `${folder}/${at.slice(0, 10)}.jsonl`;
    const handle = this.handle(folder, file);
    const bytes = Buffer.from(`${line}\n`, 'utf8');
    const place: LinePlace = { file, offset: handle.size, bytes: bytes.length, sha: lineSha(bytes) };
    before?.(place);
    let done = 0;
    while (done < bytes.length) done += writeSync(handle.fd, bytes, done, bytes.length - done);
    handle.size += bytes.length;
    handle.dirty = true;
    this.written.add(file);
    return place;
  }

  /** The files this run wrote to, relative to the directory. */
  files(): string[] {
    return [...this.written].sort();
  }

  sync(): void {
    for (const handle of this.open.values()) {
      if (!handle.dirty) continue;
      fdatasyncSync(handle.fd);
      handle.dirty = false;
    }
  }

  close(): void {
    this.sync();
    for (const handle of this.open.values()) closeSync(handle.fd);
    this.open.clear();
  }

  private handle(folder: RecordingFolder, file: string): OpenFile {
    const known = this.open.get(file);
    if (known) return known;
    // Lines arrive in time order: once a folder's next day begins, its previous day is done.
    for (const [name, handle] of this.open) {
      if (!name.startsWith(`${folder}/`)) continue;
      if (handle.dirty) fdatasyncSync(handle.fd);
      closeSync(handle.fd);
      this.open.delete(name);
    }
    mkdirSync(path.join(this.dir, folder), { recursive: true });
    const fd = openSync(path.join(this.dir, file), 'a');
    const handle: OpenFile = { fd, size: fstatSync(fd).size, dirty: false };
    this.open.set(file, handle);
    return handle;
  }
}
