import { createReadStream } from 'node:fs';

/** A line longer than this is refused: the reader holds one line at a time, and no message is near it. */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;

export interface FileLine {
  /** 1-based, as the loader reports it. */
  readonly number: number;
  /** Without its line end (LF or CRLF) and, on line 1, without a byte-order mark. */
  readonly text: string;
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const LF = 0x0a;

/**
 * The lines of a UTF-8 file, read in chunks so memory stays bounded by the longest line rather
 * than the file; split the way core's recording loader splits them. A line that is not UTF-8
 * throws NotUtf8 with its number: decoding it leniently would replace its bytes with U+FFFD and
 * write them out changed, unseen.
 */
export async function* readLines(file: string): AsyncGenerator<FileLine> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let number = 0;
  const take = (bytes: Buffer): FileLine => {
    number += 1;
    let text: string;
    try {
      text = utf8.decode(bytes);
    } catch {
      throw new NotUtf8(number);
    }
    if (text.endsWith('\r')) text = text.slice(0, -1);
    if (number === 1) text = text.replace(/^\uFEFF/, '');
    return { number, text };
  };
  for await (const chunk of createReadStream(file, { highWaterMark: 256 * 1024 })) {
    const bytes = chunk as Buffer;
    let start = 0;
    for (let newline = bytes.indexOf(LF); newline !== -1; newline = bytes.indexOf(LF, start)) {
      const part = bytes.subarray(start, newline);
      const line = pending.length === 0 ? part : Buffer.concat([...pending, part]);
      pending = [];
      pendingBytes = 0;
      yield take(line);
      start = newline + 1;
    }
    if (start < bytes.length) {
      pending.push(bytes.subarray(start));
      pendingBytes += bytes.length - start;
      if (pendingBytes > MAX_LINE_BYTES) throw new LineTooLong(number + 1);
    }
  }
  if (pendingBytes > 0) yield take(Buffer.concat(pending));
}

export class LineTooLong extends Error {
  constructor(readonly line: number) {
    super(`line longer than ${MAX_LINE_BYTES} bytes`);
  }
}

export class NotUtf8 extends Error {
  constructor(readonly line: number) {
    super('not valid UTF-8 (anonymise keeps every byte it does not replace, so it cannot guess these)');
  }
}
