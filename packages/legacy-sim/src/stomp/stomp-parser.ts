import { StompFrameError, unescapeHeader, type StompFrame, type StompVersion } from './stomp-frame';

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

const COMMAND = /^[A-Za-z]+$/;

/**
 * Incremental STOMP parser. A WebSocket message may carry one frame, several, part of one, or a
 * bare heart-beat; push() takes whatever arrived and calls onFrame for every complete frame, in
 * order and synchronously, so the caller can switch `version` (after CONNECT) before the next
 * frame's headers are decoded. After a StompFrameError the parser refuses further input.
 */
export class StompParser {
  /** Escaping rules for headers of the frames still to come; 1.0 (none) until negotiated. */
  version: StompVersion = '1.0';
  private buf: Buffer = Buffer.alloc(0);
  private head: Head | undefined;
  /** Where the NUL search resumes for a body without content-length. */
  private scanFrom = 0;
  private failed: StompFrameError | undefined;

  constructor(
    private readonly handlers: StompParserHandlers,
    private readonly limits: StompParserLimits = DEFAULT_PARSER_LIMITS,
  ) {}

  /** Bytes held for a frame not yet complete. */
  get buffered(): number {
    return this.buf.length;
  }

  push(chunk: Buffer | string): void {
    if (this.failed) throw this.failed;
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    this.buf = this.buf.length === 0 ? bytes : Buffer.concat([this.buf, bytes]);
    try {
      this.drain();
    } catch (err) {
      if (err instanceof StompFrameError) {
        this.failed = err;
        this.buf = Buffer.alloc(0);
      }
      throw err;
    }
  }

  private drain(): void {
    for (;;) {
      if (this.head === undefined && !this.skipHeartBeats()) return;
      const frame = this.nextFrame();
      if (frame === undefined) return;
      this.handlers.onFrame(frame);
    }
  }

  /** Consumes EOLs between frames; false when nothing but a possible half "\r\n" is left. */
  private skipHeartBeats(): boolean {
    let pos = 0;
    for (;;) {
      if (this.buf[pos] === LF) {
        pos += 1;
      } else if (this.buf[pos] === CR && pos + 1 < this.buf.length && this.buf[pos + 1] === LF) {
        pos += 2;
      } else {
        break;
      }
      this.handlers.onHeartBeat?.();
    }
    if (pos > 0) this.buf = this.buf.subarray(pos);
    return this.buf.length > 0 && !(this.buf.length === 1 && this.buf[0] === CR);
  }

  private nextFrame(): StompFrame | undefined {
    this.head ??= this.readHead();
    const head = this.head;
    if (head === undefined) return undefined;
    const { maxFrameBytes } = this.limits;
    let end: number;
    if (head.contentLength !== undefined) {
      end = head.bodyStart + head.contentLength;
      if (this.buf.length <= end) return undefined;
      if (this.buf[end] !== NUL) {
        throw new StompFrameError('missing-nul', 'frame body is not followed by NUL at content-length');
      }
    } else {
      end = this.buf.indexOf(NUL, Math.max(head.bodyStart, this.scanFrom));
      if (end === -1) {
        this.scanFrom = this.buf.length;
        if (this.buf.length > maxFrameBytes) {
          throw new StompFrameError('frame-too-large', `frame exceeds ${maxFrameBytes} bytes`);
        }
        return undefined;
      }
      if (end + 1 > maxFrameBytes) {
        throw new StompFrameError('frame-too-large', `frame exceeds ${maxFrameBytes} bytes`);
      }
    }
    const body = Buffer.from(this.buf.subarray(head.bodyStart, end));
    this.buf = this.buf.subarray(end + 1);
    this.head = undefined;
    this.scanFrom = 0;
    return { command: head.command, headers: head.headers, body };
  }

  private readHead(): Head | undefined {
    const { maxHeaders, maxHeaderLineBytes, maxFrameBytes } = this.limits;
    const lines: string[] = [];
    let lineStart = 0;
    for (;;) {
      const lf = this.buf.indexOf(LF, lineStart);
      const lineEnd = lf === -1 ? this.buf.length : lf > lineStart && this.buf[lf - 1] === CR ? lf - 1 : lf;
      if (lineEnd - lineStart > maxHeaderLineBytes) {
        throw new StompFrameError(
          'header-line-too-long',
          `a header line exceeds ${maxHeaderLineBytes} bytes`,
        );
      }
      if (lines.length === 0) this.checkCommand(lineStart, lineEnd, lf !== -1);
      if (lf === -1) return undefined;
      if (lf + 1 > maxFrameBytes) {
        throw new StompFrameError('frame-too-large', `frame exceeds ${maxFrameBytes} bytes`);
      }
      const line = this.buf.toString('utf8', lineStart, lineEnd);
      lineStart = lf + 1;
      if (lines.length > 0 && line === '') return this.decodeHead(lines, lineStart);
      if (lines.length > maxHeaders) {
        throw new StompFrameError('too-many-headers', `a frame may carry at most ${maxHeaders} headers`);
      }
      lines.push(line);
    }
  }

  /** Rejects garbage as soon as the command cannot be a command, without waiting for a NUL. */
  private checkCommand(start: number, end: number, complete: boolean): void {
    let text = this.buf.toString('latin1', start, end);
    // The CR of a CRLF may arrive without its LF.
    if (!complete && text.endsWith('\r')) text = text.slice(0, -1);
    if ((complete && text.length === 0) || (text.length > 0 && !COMMAND.test(text))) {
      throw new StompFrameError('bad-command', 'expected a STOMP command line');
    }
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
      if (bodyStart + contentLength + 1 > this.limits.maxFrameBytes) {
        throw new StompFrameError('frame-too-large', `frame exceeds ${this.limits.maxFrameBytes} bytes`);
      }
    }
    return { command, headers, bodyStart, contentLength };
  }
}
