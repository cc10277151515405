import {
  ClientTextFrame,
  textFrameHeaderLength,
  writeTextFrameHeader,
  type FramedText,
  escapeHeader,
  escapesHeaders,
  type StompVersion,
} from '@racedata/core';
import type { FrameMemory } from './frame-memory';
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
  /**
   * The last destination asked for and its tail: sessions nearly always share one, and the
   * destination is then the same string (StompSubscriptions keeps the known one), so this check
   * spares a hash lookup per session.
   */
  private lastDestination: string | undefined;
  private lastTail: Buffer | undefined;

  constructor(message: unknown) {
    this.body = JSON.stringify(message);
    this.bodyBytes = Buffer.byteLength(this.body, 'utf8');
  }

  /**
   * The framed text; `head` comes from frameHead(), `sequence` ends the message-id. One buffer
   * per session, written to its socket in one write: the WebSocket header, the head encoded when
   * the session subscribed, the sequence's ASCII digits, then the shared tail copied in. The
   * buffer comes from `memory` (see FrameMemory: call its keep() if the socket queued the frame).
   */
  frame(head: FrameHead, sequence: number, memory: FrameMemory): FramedText {
    const payload = this.payloadBytes(head.bytes, head.destination, sequence);
    const frame = memory.take(textFrameHeaderLength(payload) + payload);
    this.writeFrame(frame, 0, head, sequence);
    return new ClientTextFrame(frame, textFrameHeaderLength(payload));
  }

  /** Bytes of the WebSocket frame `head` and `sequence` make (header included). */
  frameBytes(head: FrameHead, sequence: number): number {
    return this.frameBytesOf(head.bytes, head.destination, sequence);
  }

  /** frameBytes() of a head given by its parts (a session with one subscription holds those). */
  frameBytesOf(headBytes: Buffer, destination: string, sequence: number): number {
    const payload = this.payloadBytes(headBytes, destination, sequence);
    return textFrameHeaderLength(payload) + payload;
  }

  private payloadBytes(headBytes: Buffer, destination: string, sequence: number): number {
    return headBytes.length + decimalDigits(sequence) + 1 + this.tailFor(destination).length;
  }

  /**
   * Writes that frame into `target` at `at` (frameBytes() of room): the WebSocket header, the head
   * encoded when the session subscribed, the sequence's ASCII digits, then the shared tail copied
   * in. Returns where the frame ends. A session holding several messages lays their frames out
   * back to back in one buffer, and writes them in one write.
   */
  writeFrame(target: Buffer, at: number, head: FrameHead, sequence: number): number {
    return this.writeFrameOf(target, at, head.bytes, head.destination, sequence);
  }

  /** writeFrame() of a head given by its parts. */
  writeFrameOf(target: Buffer, at: number, headBytes: Buffer, destination: string, sequence: number): number {
    const tail = this.tailFor(destination);
    const digits = decimalDigits(sequence);
    const lines = headBytes.length + digits + 1;
    const bytes = lines + tail.length;
    const start = at + writeTextFrameHeader(target, bytes, at);
    target.set(headBytes, start);
    let digit = start + lines - 1;
    target[digit] = NEWLINE;
    for (let n = sequence; digit > start + headBytes.length; n = Math.floor(n / 10)) {
      target[--digit] = ZERO + (n % 10);
    }
    target.set(tail, start + lines);
    return start + bytes;
  }

  private tailFor(destination: string): Buffer {
    return destination === this.lastDestination ? (this.lastTail as Buffer) : this.tailOf(destination);
  }

  /** Everything after the per-session lines, built and encoded once per destination. */
  private tailOf(destination: string): Buffer {
    let tail = this.tails.get(destination);
    if (tail === undefined) {
      tail = Buffer.from(
        `destination:${destination}\ncontent-type:application/json\ncontent-length:${this.bodyBytes}\n\n${this.body}\0`,
        'utf8',
      );
      this.tails.set(destination, tail);
    }
    this.lastDestination = destination;
    this.lastTail = tail;
    return tail;
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
/** The message every session asks about during one fan-out, so most asks skip the WeakMap. */
let last: { message: object; frames: MessageFrames } | undefined;

/** The frames of a hub message, built by the first session it reaches and shared by the rest. */
export function messageFrames(message: object): MessageFrames {
  if (last?.message === message) return last.frames;
  let frames = framesByMessage.get(message);
  if (!frames) {
    frames = new MessageFrames(message);
    framesByMessage.set(message, frames);
  }
  last = { message, frames };
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
