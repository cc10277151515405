import { writeSync } from 'node:fs';

export interface StdoutPrintOptions {
  /** The file descriptor printed to: 1 in the real process. */
  readonly fd: number;
  /** Node's stream for the descriptor (process.stdout), built only when a write would block. */
  readonly stream: () => NodeJS.WritableStream;
  /** fs.writeSync; tests hand in their own to make a write short, block or fail. */
  readonly write?: (fd: number, bytes: Uint8Array) => number;
}

/**
 * Prints text to stdout with a synchronous write of its own, without building process.stdout.
 * For a pipe, Node builds a socket and a stream around the descriptor on first use, which cost
 * a start about 2 ms of the 40 or so it spends beyond bare Node's (bench/src/scenarios/start-up),
 * only to print the banner. Node writes to pipes, files and terminals synchronously on Linux
 * too, so what is printed leaves in the same order, at the same moment.
 *
 * A descriptor that would block (a non-blocking pipe that is full) hands what is left, and
 * everything printed after it, to the stream, which waits for the reader. A reader that went
 * away (EPIPE) or a closed stdout (EBADF) loses what is printed, as the stream would; a
 * simulator keeps serving either way. Any other failure is thrown.
 */
export function stdoutPrinter(options: StdoutPrintOptions): (text: string) => void {
  const write = options.write ?? writeSync;
  let stream: NodeJS.WritableStream | undefined;
  return (text) => {
    if (stream) {
      stream.write(text);
      return;
    }
    let rest: Uint8Array = Buffer.from(text);
    try {
      for (let written = 1; rest.length > 0 && written > 0; rest = rest.subarray(written))
        written = write(options.fd, rest);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EPIPE' || code === 'EBADF') return;
      if (code !== 'EAGAIN') throw err;
    }
    // Left over: the descriptor would block (or took nothing, which no blocking one does).
    if (rest.length > 0) {
      stream = options.stream();
      stream.write(rest);
    }
  };
}
