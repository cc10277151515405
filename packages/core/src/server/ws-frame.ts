/** FIN set, opcode 1: one complete text message (RFC 6455 section 5.2). */
const FIN_TEXT = 0x81;

import type { FramedText } from './ws-send';

/**
 * A text message framed once for many WebSocket clients: the RFC 6455 frame a server sends
 * (unmasked, unfragmented, uncompressed), header and UTF-8 payload in one buffer. Fan-out
 * writes these same bytes to every socket instead of encoding and framing the text per client.
 */
export interface SharedTextFrame extends FramedText {
  readonly text: string;
}

/** Bytes of the header of a server text frame carrying `payloadBytes` (RFC 6455 section 5.2). */
export function textFrameHeaderLength(payloadBytes: number): number {
  return payloadBytes < 126 ? 2 : payloadBytes < 65_536 ? 4 : 10;
}

/** Writes that header into `target` at `at` (its start by default); returns its length. */
export function writeTextFrameHeader(target: Buffer, payloadBytes: number, at = 0): number {
  target[at] = FIN_TEXT;
  if (payloadBytes < 126) {
    target[at + 1] = payloadBytes;
    return 2;
  }
  if (payloadBytes < 65_536) {
    target[at + 1] = 126;
    target.writeUInt16BE(payloadBytes, at + 2);
    return 4;
  }
  target[at + 1] = 127;
  target.writeUInt32BE(Math.floor(payloadBytes / 2 ** 32), at + 2);
  target.writeUInt32BE(payloadBytes >>> 0, at + 6);
  return 10;
}

/**
 * A frame built for one client (a STOMP MESSAGE with its own headers): the payload view is
 * made only if someone asks for it (writeFrame's fallback through send()), since a frame
 * written straight to the socket never needs it and one is built per client and message.
 */
export class ClientTextFrame implements FramedText {
  constructor(
    readonly frame: Buffer,
    private readonly headerBytes: number,
  ) {}

  get payload(): Buffer {
    return this.frame.subarray(this.headerBytes);
  }
}

export function sharedTextFrame(text: string): SharedTextFrame {
  const bytes = Buffer.byteLength(text, 'utf8');
  const head = textFrameHeaderLength(bytes);
  const frame = Buffer.allocUnsafe(head + bytes);
  writeTextFrameHeader(frame, bytes);
  frame.write(text, head, bytes, 'utf8');
  return { text, payload: frame.subarray(head), frame };
}

/**
 * The frame of a text message made of a short per-client `prefix` and a `shared` UTF-8 part
 * encoded once (a STOMP MESSAGE frame: per-session headers, then the headers and body every
 * session shares): only the prefix is encoded per client, the shared bytes are copied.
 */
export function prefixedTextFrame(prefix: string, shared: Buffer): FramedText {
  const prefixBytes = Buffer.byteLength(prefix, 'utf8');
  const bytes = prefixBytes + shared.length;
  const head = textFrameHeaderLength(bytes);
  const frame = Buffer.allocUnsafe(head + bytes);
  writeTextFrameHeader(frame, bytes);
  frame.write(prefix, head, prefixBytes, 'utf8');
  frame.set(shared, head + prefixBytes);
  return new ClientTextFrame(frame, head);
}

/** The payloads of server text frames laid out back to back (as textFrameHeaderLength frames them). */
export function textFramePayloads(frames: Buffer): Buffer[] {
  const payloads: Buffer[] = [];
  for (let at = 0; at < frames.length;) {
    const mark = frames[at + 1] as number;
    const header = mark < 126 ? 2 : mark === 126 ? 4 : 10;
    const bytes =
      mark < 126
        ? mark
        : mark === 126
          ? frames.readUInt16BE(at + 2)
          : frames.readUInt32BE(at + 2) * 2 ** 32 + frames.readUInt32BE(at + 6);
    payloads.push(frames.subarray(at + header, at + header + bytes));
    at += header + bytes;
  }
  return payloads;
}
