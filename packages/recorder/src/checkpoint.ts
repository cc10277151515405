import {
  closeSync,
  existsSync,
  fdatasyncSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { createReadStream } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Logger } from '@racedata/core';
import { lineSha, type LinePlace } from './day-files';

/** Hidden, so the replay (which skips hidden files and folders' other content) never reads it. */
export const CHECKPOINT_FILE = path.join('.recorder', 'checkpoint.jsonl');

/**
 * What a durable line's resumption needs: the eventId of an event (the JSON cursor), or the
 * fingerprint of a listen answer (the legacy queue may hand the last one out again), with where
 * its line was written. No credential, no content: an id, a place and hashes.
 */
export interface CheckpointEntry extends LinePlace {
  readonly kind: 'events' | 'listen';
  /** The upstream's base URL: eventIds of another upstream mean nothing here. */
  readonly source: string;
  readonly eventId?: number;
  readonly xmlSha?: string;
}

export interface ResumePoint {
  readonly events?: CheckpointEntry;
  readonly listen?: CheckpointEntry;
}

function parseEntry(text: string): CheckpointEntry | undefined {
  try {
    const value = JSON.parse(text) as Partial<CheckpointEntry>;
    const placed =
      typeof value.file === 'string' &&
      typeof value.offset === 'number' &&
      typeof value.bytes === 'number' &&
      typeof value.sha === 'string' &&
      typeof value.source === 'string';
    if (placed && value.kind === 'events' && typeof value.eventId === 'number')
      return value as CheckpointEntry;
    if (placed && value.kind === 'listen' && typeof value.xmlSha === 'string')
      return value as CheckpointEntry;
  } catch {
    // A line torn by a crash: the entries before it still stand.
  }
  return undefined;
}

/** The line the entry names is in its file, byte for byte. */
function written(dir: string, entry: CheckpointEntry): boolean {
  const file = path.join(dir, entry.file);
  if (entry.file.includes('..') || !existsSync(file)) return false;
  const fd = openSync(file, 'r');
  try {
    const bytes = Buffer.alloc(entry.bytes);
    const read = readSync(fd, bytes, 0, entry.bytes, entry.offset);
    return read === entry.bytes && lineSha(bytes) === entry.sha;
  } finally {
    closeSync(fd);
  }
}

/**
 * A write-ahead log of durable lines: the entry goes out before its line, so after a crash the
 * last entry either names a line that is there (resume after it) or one that never got written
 * (resume after the entry before it, and the upstream sends that message again). Compacted to
 * the last two entries of each kind when a recording starts, so it stays small.
 */
export class Checkpoint {
  private constructor(
    private readonly fd: number,
    readonly resume: ResumePoint,
  ) {}

  static async open(dir: string, logger: Logger): Promise<Checkpoint> {
    const file = path.join(dir, CHECKPOINT_FILE);
    mkdirSync(path.dirname(file), { recursive: true });
    const last: Record<'events' | 'listen', CheckpointEntry[]> = { events: [], listen: [] };
    if (existsSync(file)) {
      const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
      for await (const line of lines) {
        const entry = parseEntry(line);
        if (!entry) continue;
        const kept = last[entry.kind];
        kept.push(entry);
        if (kept.length > 2) kept.shift();
      }
    }
    const confirmed = (kept: CheckpointEntry[]): CheckpointEntry | undefined => {
      const newest = kept[kept.length - 1];
      if (newest === undefined || written(dir, newest)) return newest;
      logger.info(
        { file: newest.file },
        'the last durable line before the stop was not written; it is fetched again',
      );
      return kept.length > 1 ? kept[0] : undefined;
    };
    const resume: ResumePoint = { events: confirmed(last.events), listen: confirmed(last.listen) };
    const keep = [resume.events, resume.listen].filter((e): e is CheckpointEntry => e !== undefined);
    const temp = `${file}.tmp`;
    writeFileSync(temp, keep.map((entry) => `${JSON.stringify(entry)}\n`).join(''));
    renameSync(temp, file);
    return new Checkpoint(openSync(file, 'a'), resume);
  }

  record(entry: CheckpointEntry): void {
    const bytes = Buffer.from(`${JSON.stringify(entry)}\n`, 'utf8');
    let done = 0;
    while (done < bytes.length) done += writeSync(this.fd, bytes, done, bytes.length - done);
  }

  sync(): void {
    fdatasyncSync(this.fd);
  }

  close(): void {
    this.sync();
    closeSync(this.fd);
  }
}
