const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/**
 * Splits a byte stream into lines as it arrives, handing each complete line (without its \n or
 * \r\n) to `onLine` with its 1-based number. Only the unfinished last line is kept between
 * chunks, so a body of any size is read holding one line at most.
 */
export class NdjsonLines {
  private partial: Buffer | undefined;
  private number = 0;

  constructor(private readonly onLine: (line: Buffer, number: number) => void) {}

  push(chunk: Buffer): void {
    let start = 0;
    for (let end = chunk.indexOf(NEWLINE); end >= 0; end = chunk.indexOf(NEWLINE, start)) {
      let line = chunk.subarray(start, end);
      if (this.partial) {
        line = Buffer.concat([this.partial, line]);
        this.partial = undefined;
      }
      this.emit(line);
      start = end + 1;
    }
    if (start < chunk.length) {
      const rest = chunk.subarray(start);
      // Copied: the stream may reuse the chunk's memory.
      this.partial = this.partial ? Buffer.concat([this.partial, rest]) : Buffer.from(rest);
    }
  }

  /** The stream ended: a last line without a newline counts too. */
  end(): void {
    if (this.partial) this.emit(this.partial);
    this.partial = undefined;
  }

  private emit(line: Buffer): void {
    this.number++;
    const end = line.length > 0 && line[line.length - 1] === CARRIAGE_RETURN ? line.length - 1 : line.length;
    this.onLine(line.subarray(0, end), this.number);
  }
}
