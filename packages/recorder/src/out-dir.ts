import { createReadStream } from 'node:fs';
import { access, constants, mkdir, open, readdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { parseRecordingLine, type Logger, type RecordingKind } from '@racedata/core';
import { RecorderError } from './errors';

const FOLDERS: readonly RecordingKind[] = ['json', 'legacy'];
/** A torn last line is at most one line; a larger unterminated tail is not ours to move. */
const MAX_TORN_BYTES = 64 * 1024 * 1024;

async function kindOf(file: string): Promise<'missing' | 'dir' | 'other'> {
  try {
    return (await stat(file)).isDirectory() ? 'dir' : 'other';
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw err;
  }
}

function recordingFiles(names: string[]): string[] {
  return names.filter((name) => name.endsWith('.jsonl') && !name.startsWith('.')).sort();
}

/**
 * A file whose last line has no newline: a kill mid-write by another tool, or a hand-edited file.
 * A valid last line gets its newline; anything else is moved to a hidden file beside it (the
 * replay skips hidden files), so the recording can be appended to and the bytes are kept.
 */
async function mendTail(file: string, kind: RecordingKind, logger: Logger): Promise<void> {
  const handle = await open(file, 'r+');
  try {
    const { size } = await handle.stat();
    if (size === 0) return;
    const last = Buffer.alloc(1);
    await handle.read(last, 0, 1, size - 1);
    if (last[0] === 0x0a) return;
    const window = Math.min(size, MAX_TORN_BYTES);
    const tail = Buffer.alloc(window);
    await handle.read(tail, 0, window, size - window);
    const newline = tail.lastIndexOf(0x0a);
    if (newline < 0 && window < size) {
      throw new RecorderError('RECORDING_BROKEN', {
        where: file,
        detail: 'its last line is longer than 64 MiB',
      });
    }
    const torn = tail.subarray(newline + 1);
    const parsed = parseRecordingLine(kind, torn.toString('utf8'), file);
    if (parsed.ok) {
      await handle.write('\n', size);
      return;
    }
    const aside = path.join(path.dirname(file), `.${path.basename(file)}.torn-${size}`);
    await writeFile(aside, torn);
    await handle.truncate(size - torn.length);
    logger.warn({ file, movedTo: aside, bytes: torn.length }, 'a torn last line was moved aside');
  } finally {
    await handle.close();
  }
}

async function endsOnNewline(file: string): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    const last = Buffer.alloc(1);
    if (size > 0) await handle.read(last, 0, 1, size - 1);
    return size === 0 || last[0] === 0x0a;
  } finally {
    await handle.close();
  }
}

/** Every line but an unterminated last one, which mendTail() deals with. */
async function checkLines(file: string, kind: RecordingKind): Promise<void> {
  const complete = await endsOnNewline(file);
  const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
  let pending: { n: number; text: string } | undefined;
  const check = ({ n, text }: { n: number; text: string }) => {
    const line = n === 1 ? text.replace(/^\ufeff/, '') : text;
    if (line.trim() === '') return;
    const parsed = parseRecordingLine(kind, line, file);
    if (!parsed.ok)
      throw new RecorderError('RECORDING_BROKEN', { where: `${file}:${n}`, detail: parsed.error });
  };
  let n = 0;
  try {
    for await (const text of lines) {
      if (pending) check(pending);
      pending = { n: ++n, text };
    }
    if (pending && complete) check(pending);
  } finally {
    lines.close();
  }
}

/**
 * Makes --out ready to be appended to: created when missing; refused when it is a file, cannot
 * be written, holds recordings at its top level (the json/ and legacy/ folders would hide them
 * from the replay), or holds a recording line that is not valid. Nothing is changed before every
 * check passed, except mending a torn last line.
 */
export async function prepareOutDir(dir: string, logger: Logger): Promise<void> {
  const kind = await kindOf(dir);
  if (kind === 'other')
    throw new RecorderError('OUT_DIR_UNUSABLE', { dir, detail: 'is a file, not a directory' });
  try {
    if (kind === 'missing') await mkdir(dir, { recursive: true });
    await access(dir, constants.W_OK);
  } catch (err) {
    throw new RecorderError('OUT_DIR_UNUSABLE', { dir, detail: (err as Error).message }, { cause: err });
  }
  const top = recordingFiles(await readdir(dir));
  const folders = await Promise.all(FOLDERS.map((folder) => kindOf(path.join(dir, folder))));
  if (top.length > 0 && folders.every((k) => k === 'missing')) {
    throw new RecorderError('OUT_DIR_UNUSABLE', {
      dir,
      detail: `holds recordings at its top level (${top[0]}); the recorder writes json/ and legacy/ folders, which would hide them from the replay: use another directory`,
    });
  }
  for (const [i, folder] of FOLDERS.entries()) {
    const where = path.join(dir, folder);
    if (folders[i] === 'other')
      throw new RecorderError('OUT_DIR_UNUSABLE', { dir, detail: `${folder} is not a directory` });
    if (folders[i] === 'missing') continue;
    for (const name of recordingFiles(await readdir(where))) await checkLines(path.join(where, name), folder);
  }
  for (const [i, folder] of FOLDERS.entries()) {
    if (folders[i] !== 'dir') continue;
    const where = path.join(dir, folder);
    for (const name of recordingFiles(await readdir(where)))
      await mendTail(path.join(where, name), folder, logger);
  }
}
