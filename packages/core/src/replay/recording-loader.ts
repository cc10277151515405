import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { ChannelCatalog } from '../channel-catalog';
import { coreError } from '../errors';
import type { Logger } from '../logger';
import { parseRecordingLine } from './recording-line';
import type { RecordedMessage, RecordedMessageOf, RecordingKind, RecordingProblem } from './recording-types';

export const RECORDING_EXTENSION = '.jsonl';

/** Past this many problems in one file the rest are summarised; the file is refused either way. */
const MAX_PROBLEMS_PER_FILE = 10;

export interface LoadRecordingsOptions {
  logger?: Logger;
  /**
   * When given, every channel must be in it and each line's delivery must match the channel's
   * kind; a simulator passes its own catalog so a recording it cannot play is refused up front.
   */
  catalog?: ChannelCatalog;
}

export interface LoadedRecordings<M extends RecordedMessage = RecordedMessage> {
  /** Every message of the accepted files, ordered by `at`; file then line order breaks ties. */
  readonly messages: M[];
  /** Why each refused file was refused; a refused file contributes no message at all. */
  readonly problems: RecordingProblem[];
  /** The accepted files, in the order they were read. */
  readonly files: string[];
}

async function statOrUndefined(target: string) {
  try {
    return await fs.stat(target);
  } catch {
    return undefined;
  }
}

/**
 * The files a kind reads: `<dir>/<kind>/*.jsonl` when that subfolder exists, otherwise
 * `<dir>/*.jsonl`; a path to a single file is that file. Names are sorted by code point so the
 * order never depends on the locale. Hidden files are skipped.
 */
export async function recordingFiles(dir: string, kind: RecordingKind): Promise<string[]> {
  const stat = await statOrUndefined(dir);
  if (stat === undefined) throw coreError('RECORDING_INVALID', `recordings directory ${dir} does not exist`);
  if (stat.isFile()) return [dir];
  if (!stat.isDirectory()) throw coreError('RECORDING_INVALID', `${dir} is not a directory`);
  const sub = path.join(dir, kind);
  const folder = (await statOrUndefined(sub))?.isDirectory() ? sub : dir;
  const entries = await fs.readdir(folder, { withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && e.name.endsWith(RECORDING_EXTENSION) && !e.name.startsWith('.'))
    .map((e) => e.name)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((name) => path.join(folder, name));
}

function catalogProblem(message: RecordedMessage, catalog: ChannelCatalog): string | undefined {
  const channel = message.kind === 'legacy' ? message.channel : message.message.channel;
  // `id` is the legacy "every user" address, valid whatever the catalog says.
  if (message.kind === 'legacy' && channel === 'id') return undefined;
  const kind = catalog.kindOf(channel);
  if (kind === undefined) return `unknown channel "${channel}"`;
  if (kind !== message.delivery)
    return `channel ${channel} is ${kind}, but the line says "${message.delivery}"`;
  return undefined;
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function strictUtf8(bytes: Uint8Array): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** The 1-based line holding the first byte sequence that is not UTF-8. */
function firstNonUtf8Line(bytes: Buffer): number {
  let line = 1;
  let start = 0;
  for (;;) {
    const end = bytes.indexOf(0x0a, start);
    if (strictUtf8(bytes.subarray(start, end === -1 ? bytes.length : end)) === undefined || end === -1)
      return line;
    line += 1;
    start = end + 1;
  }
}

interface FileResult<M> {
  messages: M[];
  problems: RecordingProblem[];
}

export async function readRecordingFile<K extends RecordingKind>(
  file: string,
  kind: K,
  catalog?: ChannelCatalog,
): Promise<FileResult<RecordedMessageOf<K>>> {
  const messages: RecordedMessageOf<K>[] = [];
  const problems: RecordingProblem[] = [];
  let bytes: Buffer;
  try {
    bytes = await fs.readFile(file);
  } catch (err) {
    return { messages, problems: [{ file, message: `cannot be read: ${(err as Error).message}` }] };
  }
  const text = strictUtf8(bytes);
  if (text === undefined) {
    // Decoding leniently would replay U+FFFD where the recording has other bytes.
    return { messages, problems: [{ file, line: firstNonUtf8Line(bytes), message: 'not valid UTF-8' }] };
  }
  const name = path.basename(file);
  const lines = text.replace(/^\uFEFF/, '').split('\n');
  let extra = 0;
  lines.forEach((raw, index) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() === '') return;
    const result = parseRecordingLine(kind, line, `${name}:${index + 1}`);
    const error = result.ok ? (catalog ? catalogProblem(result.message, catalog) : undefined) : result.error;
    if (error === undefined && result.ok) {
      messages.push(result.message);
    } else if (problems.length < MAX_PROBLEMS_PER_FILE) {
      problems.push({ file, line: index + 1, message: error ?? 'invalid line' });
    } else {
      extra += 1;
    }
  });
  if (extra > 0) problems.push({ file, message: `${extra} more invalid line(s) not listed` });
  if (problems.length === 0 && messages.length === 0) problems.push({ file, message: 'holds no messages' });
  return problems.length > 0 ? { messages: [], problems } : { messages, problems };
}

/**
 * Reads every recording file of a kind (see recordingFiles). A file with any bad line is refused
 * whole, never half-read; its problems are returned and the other files still load. A missing
 * directory throws RECORDING_INVALID, since no recording could ever be played from it.
 */
export async function loadRecordings<K extends RecordingKind>(
  dir: string,
  kind: K,
  options: LoadRecordingsOptions = {},
): Promise<LoadedRecordings<RecordedMessageOf<K>>> {
  const candidates = await recordingFiles(dir, kind);
  const messages: RecordedMessageOf<K>[] = [];
  const problems: RecordingProblem[] = [];
  const files: string[] = [];
  for (const file of candidates) {
    const result = await readRecordingFile(file, kind, options.catalog);
    if (result.problems.length > 0) {
      problems.push(...result.problems);
      options.logger?.warn({ file, problems: result.problems.length }, 'recording file refused');
      continue;
    }
    files.push(file);
    messages.push(...result.messages);
    options.logger?.debug({ file, messages: result.messages.length }, 'recording file loaded');
  }
  // Array.prototype.sort is stable, so equal timestamps keep file and line order.
  messages.sort((a, b) => a.at - b.at);
  return { messages, problems, files };
}
