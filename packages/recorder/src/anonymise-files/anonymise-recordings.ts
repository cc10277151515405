import { promises as fs } from 'node:fs';
import path from 'node:path';
import {
  parseRecordingLine,
  recordingFiles,
  shownName,
  type Logger,
  type RecordingKind,
} from '@racedata/core';
import type { Anonymiser, AnonymiseSummary } from '../anonymise/index';
import { recorderError } from '../errors';
import { anonymiseFileLine } from './line-codec';
import { checkInOut, realPath, removeStaleTemps, within } from './in-out-paths';
import { LineTooLong, NotUtf8, readLines } from './line-reader';
import { TempFile } from './temp-file';

export interface AnonymiseRecordingsOptions {
  /** A recordings directory: IN/json/*.jsonl and IN/legacy/*.jsonl. */
  readonly inDir: string;
  /** Written as OUT/json/<same name> and OUT/legacy/<same name>. */
  readonly outDir: string;
  readonly anonymiser: Anonymiser;
  /** Replace files already in OUT (never one of IN's). */
  readonly overwrite?: boolean;
  readonly logger?: Logger;
}

export interface AnonymisedFile {
  readonly kind: RecordingKind;
  readonly input: string;
  readonly output: string;
  readonly messages: number;
}

export interface AnonymiseRecordingsResult {
  readonly files: readonly AnonymisedFile[];
  readonly summary: AnonymiseSummary;
  /** Temporary files an interrupted earlier run left in OUT, removed (relative to OUT). */
  readonly removedTemps: readonly string[];
}

const invalid = (message: string) => recorderError('ANONYMISE_INPUT_INVALID', message);

/** The input files, each with where its output goes; refuses anything that would write into IN. */
async function plan(options: AnonymiseRecordingsOptions): Promise<Array<Omit<AnonymisedFile, 'messages'>>> {
  const { inDir, outDir } = options;
  const { realIn, kinds } = await checkInOut(inDir, outDir);
  const files: Array<Omit<AnonymisedFile, 'messages'>> = [];
  for (const kind of kinds) {
    for (const input of await recordingFiles(inDir, kind)) {
      files.push({ kind, input, output: path.join(outDir, kind, path.basename(input)) });
    }
  }
  if (files.length === 0)
    throw invalid(`${shownName(inDir)} holds no json/*.jsonl or legacy/*.jsonl recording`);
  for (const { output } of files) {
    // OUT/json may itself be a link into IN.
    if (within(await realPath(output), realIn)) throw invalid(`${shownName(output)} is inside IN`);
    if (!options.overwrite && (await fs.lstat(output).catch(() => undefined)) !== undefined) {
      throw invalid(`${shownName(output)} already exists (--force replaces files in OUT)`);
    }
  }
  return files;
}

/**
 * Anonymises a recordings directory into another. Every line is checked with the replay's own
 * line parser before and after it is transformed; the first bad one stops the run with
 * `file:line: reason`, and since outputs are written to hidden temporary files (which the loader
 * never reads) and renamed only when every file went through, nothing is ever half-written.
 */
export async function anonymiseRecordings(
  options: AnonymiseRecordingsOptions,
): Promise<AnonymiseRecordingsResult> {
  const planned = await plan(options);
  const removedTemps = await removeStaleTemps(options.outDir);
  if (removedTemps.length > 0) {
    options.logger?.info({ files: removedTemps }, 'removed temporary files an interrupted run left in OUT');
  }
  const temps: TempFile[] = [];
  const done: AnonymisedFile[] = [];
  try {
    for (const file of planned) {
      const temp = await TempFile.create(file.output);
      temps.push(temp);
      const messages = await anonymiseFile(options.anonymiser, file, temp);
      done.push({ ...file, messages });
      options.logger?.info({ file: file.input, messages }, 'recording file anonymised');
    }
    for (const temp of temps) await temp.commit();
  } catch (err) {
    // Newest first, so each can remove the folders it created once they are empty.
    for (const temp of [...temps].reverse()) await temp.discard();
    throw err;
  }
  return { files: done, summary: options.anonymiser.summary(), removedTemps };
}

async function anonymiseFile(
  anonymiser: Anonymiser,
  file: Omit<AnonymisedFile, 'messages'>,
  temp: TempFile,
): Promise<number> {
  const name = path.basename(file.input);
  const shown = shownName(file.input);
  let messages = 0;
  let where = `${shown}:1`;
  try {
    for await (const { number, text } of readLines(file.input)) {
      where = `${shown}:${number}`;
      if (text.trim() === '') continue;
      const before = parseRecordingLine(file.kind, text, `${name}:${number}`);
      if (!before.ok) throw invalid(`${where}: ${before.error}`);
      const written = anonymiseFileLine(anonymiser, file.kind, text);
      const after = parseRecordingLine(file.kind, written, `${name}:${number}`);
      if (!after.ok) throw invalid(`${where}: after anonymising: ${after.error}`);
      await temp.writeLine(written);
      messages += 1;
    }
  } catch (err) {
    if (err instanceof LineTooLong || err instanceof NotUtf8)
      throw invalid(`${shown}:${err.line}: ${err.message}`);
    if ((err as { code?: string }).code?.startsWith('ANONYMISE_')) {
      const message = (err as Error).message;
      throw message.startsWith(shown) ? err : invalid(`${where}: ${message}`);
    }
    throw err;
  }
  if (messages === 0) throw invalid(`${shown}: holds no messages`);
  return messages;
}
