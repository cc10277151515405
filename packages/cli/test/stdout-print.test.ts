import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stdoutPrinter } from '../src/stdout-print';

const errno = (code: string) => Object.assign(new Error(code), { code });

/** What stands in for process.stdout: what it was given, and how often it was built. */
function standIn() {
  const chunks: string[] = [];
  const stream = { write: (chunk: string | Uint8Array) => chunks.push(Buffer.from(chunk).toString()) > 0 };
  let built = 0;
  return {
    chunks,
    get built() {
      return built;
    },
    stream: () => {
      built++;
      return stream as unknown as NodeJS.WritableStream;
    },
  };
}

describe('stdoutPrinter', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(os.tmpdir(), 'racedata-print-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes to the descriptor itself, in order, without building the stream', () => {
    const file = path.join(dir, 'out');
    const fd = openSync(file, 'w');
    const out = standIn();
    const print = stdoutPrinter({ fd, stream: out.stream });
    print('racedata-sim: listening å\n');
    print('next steps 🐎\n');
    closeSync(fd);
    expect(readFileSync(file, 'utf8')).toBe('racedata-sim: listening å\nnext steps 🐎\n');
    expect(out.built).toBe(0);
  });

  it('writes what a short write left until all of it is out', () => {
    const written: string[] = [];
    const write = (_fd: number, bytes: Uint8Array) => {
      const n = Math.min(3, bytes.length);
      written.push(Buffer.from(bytes.subarray(0, n)).toString());
      return n;
    };
    const out = standIn();
    stdoutPrinter({ fd: 1, stream: out.stream, write })('abcdefgh');
    expect(written).toEqual(['abc', 'def', 'gh']);
    expect(out.built).toBe(0);
  });

  it('hands the rest, and all that follows, to the stream once the descriptor would block', () => {
    let calls = 0;
    const write = (_fd: number, bytes: Uint8Array) => {
      if (++calls > 1) throw errno('EAGAIN');
      return Math.min(4, bytes.length);
    };
    const out = standIn();
    const print = stdoutPrinter({ fd: 1, stream: out.stream, write });
    print('banner line\n');
    print('next steps\n');
    expect(out.chunks.join('')).toBe('er line\nnext steps\n');
    expect(out.built).toBe(1);
    // Once the stream has it, nothing is written to the descriptor ahead of what it holds.
    expect(calls).toBe(2);
  });

  it('hands the rest to the stream when the descriptor takes nothing', () => {
    const out = standIn();
    stdoutPrinter({ fd: 1, stream: out.stream, write: () => 0 })('all of it');
    expect(out.chunks.join('')).toBe('all of it');
  });

  it.each(['EPIPE', 'EBADF'])('drops what it prints on %s, as the stream would, and goes on', (code) => {
    const out = standIn();
    const print = stdoutPrinter({
      fd: 1,
      stream: out.stream,
      write: () => {
        throw errno(code);
      },
    });
    expect(() => print('banner\n')).not.toThrow();
    expect(() => print('more\n')).not.toThrow();
    expect(out.built).toBe(0);
  });

  it('throws any other failure', () => {
    const print = stdoutPrinter({
      fd: 1,
      stream: standIn().stream,
      write: () => {
        throw errno('ENOSPC');
      },
    });
    expect(() => print('banner\n')).toThrow('ENOSPC');
  });
});
