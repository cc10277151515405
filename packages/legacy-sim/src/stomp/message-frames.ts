import { SplitTextFrame, textFrameHeaderLength, writeTextFrameHeader, type FramedText } from '@racedata/core';
import { escapeHeader, escapesHeaders, type StompVersion } from './stomp-frame';
import type { Subscription } from './stomp-subscriptions';

/**
 * The MESSAGE frames of one hub message, for every session it reaches. The frame is the bytes
 * `serializeFrame(messageFrame(subscription, messageId, JSON.stringify(message)), version)`
 * gives, but the JSON body is serialised once per message rather than once per session, and
 * everything after the two per-session headers (destination, content-type, content-length,
 * body) is built and UTF-8 encoded once per destination. A session adds only its
 * `subscription` and `message-id` lines, from a head it prepared when it subscribed (see
 * frameHead), and gets the WebSocket frame ready to write.
 */
export class MessageFrames {
  private readonly body: string;
  private readonly bodyBytes: number;
  /** The frame after the per-session headers, by the escaped destination (all it depends on). */
  private readonly tails = new Map<string, Buffer>();

  constructor(message: unknown) {
    this.body = JSON.stringify(message);
    this.bodyBytes = Buffer.byteLength(this.body, 'utf8');
  }

  /**
   * The framed text; `head` comes from frameHead(), `sequence` ends the message-id. Built from
   * bytes: the head encoded when the session subscribed and the sequence's ASCII digits, then
   * the shared tail as a second part; no string is made or encoded per session.
   */
  frame(head: FrameHead, sequence: number): FramedText {
    let tail = this.tails.get(head.destination);
    if (tail === undefined) {
      tail = Buffer.from(
        `destination:${head.destination}\ncontent-type:application/json\ncontent-length:${this.bodyBytes}\n\n${this.body}\0`,
        'utf8',
      );
      this.tails.set(head.destination, tail);
    }
    const digits = decimalDigits(sequence);
    const bytes = head.bytes.length + digits + 1 + tail.length;
    const headerBytes = textFrameHeaderLength(bytes);
    // Only the WebSocket header and the session's lines are this session's; the shared tail
    // follows in the same writev (writeFrame), never copied per session.
    const frame = Buffer.allocUnsafe(headerBytes + head.bytes.length + digits + 1);
    writeTextFrameHeader(frame, bytes);
    frame.set(head.bytes, headerBytes);
    let at = headerBytes + head.bytes.length + digits;
    frame[at] = NEWLINE;
    for (let n = sequence; at > headerBytes + head.bytes.length; n = Math.floor(n / 10)) {
      frame[--at] = ZERO + (n % 10);
    }
    return new SplitTextFrame(frame, headerBytes, tail);
  }
}

const NEWLINE = 0x0a;
const ZERO = 0x30;

/** Digits of a non-negative integer written in decimal (the message-id's sequence). */
function decimalDigits(n: number): number {
  let digits = 1;
  for (let rest = n; rest >= 10; rest = Math.floor(rest / 10)) digits++;
  return digits;
}

const framesByMessage = new WeakMap<object, MessageFrames>();

/** The frames of a hub message, built by the first session it reaches and shared by the rest. */
export function messageFrames(message: object): MessageFrames {
  let frames = framesByMessage.get(message);
  if (!frames) {
    frames = new MessageFrames(message);
    framesByMessage.set(message, frames);
  }
  return frames;
}

/** What a session's MESSAGE frames for one subscription start with, up to the message-id's sequence. */
export interface FrameHead {
  /** `MESSAGE`, `subscription:<id>` (when the subscription has one), `message-id:<session>-`. */
  readonly text: string;
  /** `text` in UTF-8, copied into every frame as it is. */
  readonly bytes: Buffer;
  /** The destination header's value, escaped for the session's STOMP version. */
  readonly destination: string;
}

/** The head of every MESSAGE frame a session sends for a subscription (message-id `<session>-<n>`). */
export function frameHead(subscription: Subscription, sessionId: string, version: StompVersion): FrameHead {
  const escape = escapesHeaders('MESSAGE', version);
  const value = (text: string) => (escape ? escapeHeader(text, version) : text);
  const lines = ['MESSAGE'];
  if (subscription.id !== undefined) lines.push(`subscription:${value(subscription.id)}`);
  // Escaping works character by character, so escaping the prefix escapes every full id.
  lines.push(`message-id:${value(`${sessionId}-`)}`);
  const text = lines.join('\n');
  return { text, bytes: Buffer.from(text, 'utf8'), destination: value(subscription.destination) };
}
