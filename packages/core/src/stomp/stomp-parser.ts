import { StompFrameError, unescapeHeader, type StompFrame, type StompVersion } from './stomp-frame';
import { PendingBytes } from './pending-bytes';

const LF = 0x0a;
const CR = 0x0d;
const NUL = 0x00;

export interface StompParserLimits {
  /** Whole frame (command, headers and body) in bytes. */
  readonly maxFrameBytes: number;
  readonly maxHeaders: number;
  /** One command or header line in bytes, without its EOL. */
  readonly maxHeaderLineBytes: number;
}

export const DEFAULT_PARSER_LIMITS: StompParserLimits = {
  maxFrameBytes: 1024 * 1024,
  maxHeaders: 64,
  maxHeaderLineBytes: 8 * 1024,
};

export interface StompParserHandlers {
  onFrame(frame: StompFrame): void;
  /** A bare EOL between frames (STOMP heart-beat). */
  onHeartBeat?(): void;
}

interface Head {
  command: string;
  headers: Record<string, string>;
  bodyStart: number;
  contentLength: number | undefined;
}

/**
 * Incremental STOMP parser. A WebSocket message may carry one frame, several, part of one, or a
 * bare heart-beat; push() takes whatever arrived and calls onFrame for every complete frame, in
 * order and synchronously, so the caller can switch `version` (after CONNECT) before the next
 * frame's headers are decoded. After a StompFrameError the parser refuses further input.
 *
 * The work is linear in the bytes received however finely a peer splits them: the bytes of an
 * unfinished frame go to a growable buffer (never re-concatenated), and every search resumes
 * where the previous push stopped. Offsets below are relative to the current frame's first byte.
 */
export class StompParser {
  /** Escaping rules for headers of the frames still to come; 1.0 (none) until negotiated. */
  version: StompVersion = '1.0';
  private readonly pending = new PendingBytes();
  /** Between frames (heart-beats allowed), in the head, or in the body described by `head`. */
  private inFrame = false;
  private head: Head | undefined;
  private lines: string[] = [];
  private lineStart = 0;
  /** How far the current search (EOL in the head, NUL in the body) has looked already. */
  private scanned = 0;
  /** How much of the command line is known to be letters. */
  private commandChecked = 0;
  private failed: StompFrameError | undefined;

  constructor(
    private readonly handlers: StompParserHandlers,
    private readonly limits: StompParserLimits = DEFAULT_PARSER_LIMITS,
  ) {}

  /** Bytes held for a frame not yet complete. */
  get buffered(): number {
    return this.pending.length;
  }

  /** Bytes copied into the pending buffer so far; linear in the input (a regression guard). */
  get bytesCopied(): number {
    return this.pending.bytesCopied;
  }

  push(chunk: Buffer | string): void {
    if (this.failed) throw this.failed;
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    try {
      if (this.pending.length === 0) {
        // Common case: whole frames in one message are parsed in place, nothing is copied.
        const used = this.drain(bytes);
        if (used < bytes.length) this.pending.append(bytes.subarray(used));
      } else {
        this.pending.append(bytes);
        this.pending.consume(this.drain(this.pending.view()));
      }
    } catch (err) {
      if (err instanceof StompFrameError) {
        this.failed = err;
        this.pending.clear();
      }
      throw err;
    }
  }

  /** Parses frames from the start of `data` (the current frame's first byte); returns bytes used. */
  private drain(data: Buffer): number {
    let base = 0;
    for (;;) {
      if (!this.inFrame) {
        base = this.skipHeartBeats(data, base);
        if (base === data.length || (base === data.length - 1 && data[base] === CR)) return base;
        this.inFrame = true;
      }
      this.head ??= this.readHead(data, base);
      if (this.head === undefined) return base;
      const end = this.bodyEnd(data, base, this.head);
      if (end === -1) return base;
      const { command, headers, bodyStart } = this.head;
      // A copy: `data` may be the pending buffer, which is reused for the next frame.
      const body = Buffer.from(data.subarray(base + bodyStart, base + end));
      base += end + 1;
      this.resetFrame();
      this.handlers.onFrame({ command, headers, body });
    }
  }

  private resetFrame(): void {
    this.inFrame = false;
    this.head = undefined;
    this.lines = [];
    this.lineStart = 0;
    this.scanned = 0;
    this.commandChecked = 0;
  }

  /** Consumes EOLs between frames; a lone CR at the end may still become a CRLF. */
  private skipHeartBeats(data: Buffer, from: number): number {
    let pos = from;
    for (;;) {
      if (data[pos] === LF) {
        pos += 1;
      } else if (data[pos] === CR && pos + 1 < data.length && data[pos + 1] === LF) {
        pos += 2;
      } else {
        return pos;
      }
      this.handlers.onHeartBeat?.();
    }
  }

  /** Reads command and header lines; undefined until the blank line ending the head arrived. */
  private readHead(data: Buffer, base: number): Head | undefined {
    const { maxHeaders } = this.limits;
    const available = data.length - base;
    for (;;) {
      const lf = data.indexOf(LF, base + Math.max(this.lineStart, this.scanned));
      if (lf === -1) {
        this.scanned = available;
        // A trailing CR may be the first half of the line's CRLF.
        const lineEnd = available - (data[data.length - 1] === CR ? 1 : 0);
        this.checkLine(data, base, lineEnd, available);
        return undefined;
      }
      const rel = lf - base;
      const lineEnd = rel > this.lineStart && data[lf - 1] === CR ? rel - 1 : rel;
      this.checkLine(data, base, lineEnd, rel + 1);
      if (this.lines.length === 0 && lineEnd === 0) throw badCommand();
      const line = data.toString('utf8', base + this.lineStart, base + lineEnd);
      this.lineStart = rel + 1;
      this.scanned = rel + 1;
      if (this.lines.length > 0 && line === '') return this.decodeHead(this.lines, rel + 1);
      if (this.lines.length > maxHeaders) {
        throw new StompFrameError('too-many-headers', `a frame may carry at most ${maxHeaders} headers`);
      }
      this.lines.push(line);
    }
  }

  /**
   * The limits a line (complete or still arriving) can break. When several are broken, the one
   * whose offending byte comes first wins, so the verdict does not depend on how the bytes were
   * split into messages.
   */
  private checkLine(data: Buffer, base: number, lineEnd: number, extent: number): void {
    const { maxHeaderLineBytes, maxFrameBytes } = this.limits;
    const badAt =
      this.lines.length === 0
        ? this.firstNonLetter(data, base, Math.min(lineEnd, maxHeaderLineBytes))
        : Infinity;
    const longAt =
      lineEnd - this.lineStart > maxHeaderLineBytes ? this.lineStart + maxHeaderLineBytes : Infinity;
    const largeAt = extent > maxFrameBytes ? maxFrameBytes : Infinity;
    const first = Math.min(badAt, longAt, largeAt);
    if (first === Infinity) return;
    if (first === badAt) throw badCommand();
    if (first === longAt) {
      throw new StompFrameError('header-line-too-long', `a header line exceeds ${maxHeaderLineBytes} bytes`);
    }
    throw frameTooLarge(maxFrameBytes);
  }

  /**
   * Where the command line stops being a command (Infinity: not yet), so garbage is refused
   * without waiting for a NUL; bytes checked by an earlier push are not looked at again.
   */
  private firstNonLetter(data: Buffer, base: number, end: number): number {
    for (let i = this.commandChecked; i < end; i++) {
      const c = data[base + i] as number;
      if (!((c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a))) return i;
    }
    this.commandChecked = Math.max(this.commandChecked, end);
    return Infinity;
  }

  /** Where the frame's NUL is (relative), or -1 while the body is incomplete. */
  private bodyEnd(data: Buffer, base: number, head: Head): number {
    const { maxFrameBytes } = this.limits;
    const available = data.length - base;
    if (head.contentLength !== undefined) {
      const end = head.bodyStart + head.contentLength;
      if (available <= end) return -1;
      if (data[base + end] !== NUL) {
        throw new StompFrameError('missing-nul', 'frame body is not followed by NUL at content-length');
      }
      return end;
    }
    const nul = data.indexOf(NUL, base + Math.max(head.bodyStart, this.scanned));
    if (nul === -1) {
      this.scanned = available;
      if (available > maxFrameBytes) throw frameTooLarge(maxFrameBytes);
      return -1;
    }
    const end = nul - base;
    if (end + 1 > maxFrameBytes) throw frameTooLarge(maxFrameBytes);
    return end;
  }

  private decodeHead(lines: string[], bodyStart: number): Head {
    const command = lines[0] as string;
    const version = command === 'CONNECT' || command === 'STOMP' ? '1.0' : this.version;
    const headers: Record<string, string> = Object.create(null) as Record<string, string>;
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      if (colon <= 0) throw new StompFrameError('bad-header', `malformed header line "${line.slice(0, 80)}"`);
      const name = unescapeHeader(line.slice(0, colon), version);
      let value = unescapeHeader(line.slice(colon + 1), version);
      // 1.0 peers commonly pad "name: value"; 1.1+ forbid trimming.
      if (version === '1.0') value = value.trim();
      if (!(name in headers)) headers[name] = value;
    }
    let contentLength: number | undefined;
    const raw = headers['content-length'];
    if (raw !== undefined) {
      if (!/^\d{1,10}$/.test(raw.trim())) {
        throw new StompFrameError('bad-content-length', `invalid content-length "${raw.slice(0, 20)}"`);
      }
      contentLength = Number(raw.trim());
      if (bodyStart + contentLength + 1 > this.limits.maxFrameBytes)
        throw frameTooLarge(this.limits.maxFrameBytes);
    }
    return { command, headers, bodyStart, contentLength };
  }
}

function frameTooLarge(max: number): StompFrameError {
  return new StompFrameError('frame-too-large', `frame exceeds ${max} bytes`);
}

function badCommand(): StompFrameError {
  return new StompFrameError('bad-command', 'expected a STOMP command line');
}
