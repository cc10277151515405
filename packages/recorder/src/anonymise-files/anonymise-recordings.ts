import { promises as fs } from 'node:fs';
import path from 'node:path';
import {
  RECORDING_KINDS,
  parseRecordingLine,
  recordingFiles,
  type Logger,
  type RecordingKind,
} from '@racedata/core';
import type { Anonymiser, AnonymiseSummary } from '../anonymise/index';
import { recorderError } from '../errors';
import { anonymiseFileLine } from './line-codec';
import { LineTooLong, readLines } from './line-reader';
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
}

const invalid = (message: string) => recorderError('ANONYMISE_INPUT_INVALID', message);

async function realOrResolved(target: string): Promise<string> {
  try {
    return await fs.realpath(target);
  } catch {
    return path.resolve(target);
  }
}

async function isDirectory(target: string): Promise<boolean> {
  return (await fs.stat(target).catch(() => undefined))?.isDirectory() === true;
}

/** The input files, each with where its output goes; refuses anything that would overwrite IN. */
async function plan(options: AnonymiseRecordingsOptions): Promise<Array<Omit<AnonymisedFile, 'messages'>>> {
  const { inDir, outDir } = options;
  if (!(await isDirectory(inDir))) throw invalid(`recordings directory ${inDir} does not exist`);
  if ((await realOrResolved(inDir)) === (await realOrResolved(outDir))) {
    throw invalid(`OUT must differ from IN (${inDir}): anonymise never overwrites its input`);
  }
  const files: Array<Omit<AnonymisedFile, 'messages'>> = [];
  const inputs = new Set<string>();
  for (const kind of RECORDING_KINDS) {
    if (!(await isDirectory(path.join(inDir, kind)))) continue;
    for (const input of await recordingFiles(inDir, kind)) {
      inputs.add(await realOrResolved(input));
      files.push({ kind, input, output: path.join(outDir, kind, path.basename(input)) });
    }
  }
  if (files.length === 0) throw invalid(`${inDir} holds no json/*.jsonl or legacy/*.jsonl recording`);
  for (const { output } of files) {
    if (inputs.has(await realOrResolved(output))) throw invalid(`${output} is an input file`);
    if (!options.overwrite && (await fs.stat(output).catch(() => undefined)) !== undefined) {
      throw invalid(`${output} already exists (--force replaces files in OUT)`);
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
  return { files: done, summary: options.anonymiser.summary() };
}

async function anonymiseFile(
  anonymiser: Anonymiser,
  file: Omit<AnonymisedFile, 'messages'>,
  temp: TempFile,
): Promise<number> {
  const name = path.basename(file.input);
  let messages = 0;
  let where = `${file.input}:1`;
  try {
    for await (const { number, text } of readLines(file.input)) {
      where = `${file.input}:${number}`;
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
    if (err instanceof LineTooLong) throw invalid(`${file.input}:${err.line}: ${err.message}`);
    if ((err as { code?: string }).code?.startsWith('ANONYMISE_')) {
      const message = (err as Error).message;
      throw message.startsWith(file.input) ? err : invalid(`${where}: ${message}`);
    }
    throw err;
  }
  if (messages === 0) throw invalid(`${file.input}: holds no messages`);
  return messages;
}
