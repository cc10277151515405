/**
 * STOMP frame model, header escaping and serialisation (STOMP 1.0, 1.1 and 1.2).
 * The parser lives in stomp-parser.ts; negotiation helpers in stomp-negotiation.ts.
 */

export type StompVersion = '1.0' | '1.1' | '1.2';

export const SUPPORTED_VERSIONS: readonly StompVersion[] = ['1.0', '1.1', '1.2'];

/** Header names are case-sensitive in STOMP; a null prototype keeps `__proto__` an ordinary name. */
export type StompHeaders = Readonly<Record<string, string>>;

export interface StompFrame {
  readonly command: string;
  /** First occurrence wins for repeated headers (STOMP 1.2 "Repeated Header Entries"). */
  readonly headers: StompHeaders;
  /** Raw bytes: a body may legally contain NUL when content-length is given. */
  readonly body: Buffer;
}

export interface OutgoingFrame {
  readonly command: string;
  /** Ordered pairs; order is kept on the wire. */
  readonly headers?: ReadonlyArray<readonly [string, string]>;
  readonly body?: string;
}

export type StompFrameErrorReason =
  | 'frame-too-large'
  | 'too-many-headers'
  | 'header-line-too-long'
  | 'bad-command'
  | 'bad-header'
  | 'bad-escape'
  | 'bad-content-length'
  | 'missing-nul';

/** Raised by the parser; the session answers with an ERROR frame and closes the connection. */
export class StompFrameError extends Error {
  constructor(
    readonly reason: StompFrameErrorReason,
    message: string,
  ) {
    super(message);
    this.name = 'StompFrameError';
  }
}

/** CONNECT and CONNECTED are never escaped, so a 1.0 peer can read them before negotiation. */
export function escapesHeaders(command: string, version: StompVersion): boolean {
  return version !== '1.0' && command !== 'CONNECT' && command !== 'CONNECTED' && command !== 'STOMP';
}

// Characters STOMP 1.1 / 1.2 escape in headers; most values (ids, paths, types) have none.
const NEEDS_ESCAPE_1_1 = /[\\\n:]/;
const NEEDS_ESCAPE_1_2 = /[\\\n:\r]/;

export function escapeHeader(value: string, version: StompVersion): string {
  if (version === '1.0') return value;
  if (!(version === '1.2' ? NEEDS_ESCAPE_1_2 : NEEDS_ESCAPE_1_1).test(value)) return value;
  let out = value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/:/g, '\\c');
  if (version === '1.2') out = out.replace(/\r/g, '\\r');
  return out;
}

export function unescapeHeader(raw: string, version: StompVersion): string {
  if (version === '1.0' || !raw.includes('\\')) return raw;
  return raw.replace(/\\(.?)/gs, (_match, next: string) => {
    switch (next) {
      case 'n':
        return '\n';
      case 'c':
        return ':';
      case '\\':
        return '\\';
      case 'r':
        if (version === '1.2') return '\r';
        break;
    }
    // STOMP 1.2: "Undefined escape sequences ... MUST be treated as a fatal protocol error".
    throw new StompFrameError('bad-escape', `undefined escape sequence "\\${next}" in a header`);
  });
}

/**
 * Serialises a frame as text: every client we serve (stompjs 2.3.3 in particular) handles text
 * WebSocket messages, while binary ones it decodes as Latin-1. A body gets a content-length in
 * UTF-8 bytes unless the caller set one.
 */
export function serializeFrame(frame: OutgoingFrame, version: StompVersion): string {
  const escape = escapesHeaders(frame.command, version);
  const body = frame.body ?? '';
  const lines = [frame.command];
  let hasLength = false;
  for (const [name, value] of frame.headers ?? []) {
    if (name === 'content-length') hasLength = true;
    lines.push(
      escape ? `${escapeHeader(name, version)}:${escapeHeader(value, version)}` : `${name}:${value}`,
    );
  }
  if (body.length > 0 && !hasLength) lines.push(`content-length:${Buffer.byteLength(body, 'utf8')}`);
  return `${lines.join('\n')}\n\n${body}\0`;
}

/** A heart-beat is a bare end-of-line between frames. */
export const HEART_BEAT = '\n';
