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

function headerLength(payloadBytes: number): number {
  return payloadBytes < 126 ? 2 : payloadBytes < 65_536 ? 4 : 10;
}

function writeHeader(target: Buffer, payloadBytes: number): number {
  target[0] = FIN_TEXT;
  if (payloadBytes < 126) {
    target[1] = payloadBytes;
    return 2;
  }
  if (payloadBytes < 65_536) {
    target[1] = 126;
    target.writeUInt16BE(payloadBytes, 2);
    return 4;
  }
  target[1] = 127;
  target.writeUInt32BE(Math.floor(payloadBytes / 2 ** 32), 2);
  target.writeUInt32BE(payloadBytes >>> 0, 6);
  return 10;
}

export function sharedTextFrame(text: string): SharedTextFrame {
  const bytes = Buffer.byteLength(text, 'utf8');
  const head = headerLength(bytes);
  const frame = Buffer.allocUnsafe(head + bytes);
  writeHeader(frame, bytes);
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
  const head = headerLength(bytes);
  const frame = Buffer.allocUnsafe(head + bytes);
  writeHeader(frame, bytes);
  frame.write(prefix, head, prefixBytes, 'utf8');
  shared.copy(frame, head + prefixBytes);
  return { frame, payload: frame.subarray(head) };
}
