import { createReadStream } from 'node:fs';

/** A line longer than this is refused: the reader holds one line at a time, and no message is near it. */
export const MAX_LINE_CHARS = 16 * 1024 * 1024;

export interface FileLine {
  /** 1-based, as the loader reports it. */
  readonly number: number;
  /** Without its line end (LF or CRLF) and, on line 1, without a byte-order mark. */
  readonly text: string;
}

/**
 * The lines of a UTF-8 file, read in chunks so memory stays bounded by the longest line rather
 * than the file; split the way core's recording loader splits them.
 */
export async function* readLines(file: string): AsyncGenerator<FileLine> {
  let rest = '';
  let number = 0;
  const take = (raw: string): FileLine => {
    number += 1;
    let text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (number === 1) text = text.replace(/^\uFEFF/, '');
    return { number, text };
  };
  for await (const chunk of createReadStream(file, { encoding: 'utf8', highWaterMark: 256 * 1024 })) {
    rest += chunk as string;
    let start = 0;
    for (let newline = rest.indexOf('\n'); newline !== -1; newline = rest.indexOf('\n', start)) {
      yield take(rest.slice(start, newline));
      start = newline + 1;
    }
    rest = rest.slice(start);
    if (rest.length > MAX_LINE_CHARS) {
      throw new LineTooLong(number + 1);
    }
  }
  if (rest !== '') yield take(rest);
}

export class LineTooLong extends Error {
  constructor(readonly line: number) {
    super(`line longer than ${MAX_LINE_CHARS} characters`);
  }
}
