import type { Duplex } from 'node:stream';
import { textFrameHeaderLength, writeTextFrameHeader } from '@racedata/core';
import type { FrameChange } from '../types';

type WriteCallback = (err?: Error | null) => void;
type Write = (chunk: unknown, encoding?: unknown, cb?: unknown) => boolean;

const OPCODE_TEXT = 0x1;
/** The longest answer head to an upgrade looked through for its end. */
const HEAD_MAX = 16 * 1024;
const FIN = 0x80;

/**
 * Stands between a WebSocket session of the simulator and the client's TCP socket, on the
 * server's side of it: every byte the simulator writes to the client passes here, cut into whole
 * frames (server frames are never masked, RFC 6455 5.1). A frame goes on as it is, changed (a
 * text frame a FrameChange matches), with a frame of certify's own after it, or not at all once
 * the tap is silenced: a connection that stays open and carries nothing, as after a NAT or a
 * proxy dropped the flow. What the client sends is never touched.
 *
 * The simulator writes a shared frame buffer (core's sendFrame) and may reuse it once its write
 * returns, so a partial frame kept here is copied, and a whole one is passed on before returning.
 */
export class FrameTap {
  /**
   * First comes the answer to the upgrade request, in HTTP: a 101 is followed by frames; any
   * other answer (a refusal) is HTTP to the end and passes untouched.
   */
  private mode: 'head' | 'frames' | 'http' = 'head';
  private head = '';
  private pending: Buffer = Buffer.alloc(0);
  /** Callbacks of writes whose bytes are still part of `pending`. */
  private waiting: WriteCallback[] = [];
  /** Frames of certify's own waiting for a frame boundary. */
  private injections: Buffer[] = [];
  private silent = false;
  private readonly passOn: Write;
  /** When the last frame went to the client, and its start (for a report: `Ping`, a heart-beat). */
  lastFrameAt: number | undefined;
  lastFrameText: string | undefined;

  constructor(
    private readonly socket: Duplex,
    private readonly changes: () => readonly FrameChange[],
    private readonly now: () => number,
  ) {
    this.passOn = socket.write.bind(socket) as Write;
    (socket as unknown as { write: Write }).write = (chunk, encoding, cb) =>
      this.intercept(chunk, encoding, cb);
  }

  get silenced(): boolean {
    return this.silent;
  }

  /** From now on nothing reaches the client; the socket stays open until one side closes it. */
  silence(): void {
    this.silent = true;
    this.injections = [];
    // A partial frame kept here is never finished; its writers are told it went.
    this.pending = Buffer.alloc(0);
    for (const done of this.takeWaiting()) process.nextTick(done);
  }

  /** Sends a text frame of certify's own at the next frame boundary; false once silenced or closed. */
  inject(text: string): boolean {
    if (this.silent || this.socket.destroyed || !this.socket.writable) return false;
    const frame = textFrame(text);
    if (this.pending.length > 0) this.injections.push(frame);
    else this.send(frame, undefined);
    return true;
  }

  private intercept(chunk: unknown, encoding: unknown, cb: unknown): boolean {
    if (this.mode === 'http') return this.passOn(chunk, encoding, cb);
    const callback = (typeof encoding === 'function' ? encoding : cb) as WriteCallback | undefined;
    let bytes: Buffer =
      typeof chunk === 'string'
        ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8')
        : Buffer.from(chunk as Uint8Array);
    if (this.mode === 'head') {
      const rest = this.readHead(bytes);
      if (rest === undefined) return this.passOn(chunk, encoding, cb);
      if (rest.length === 0) return callback ? this.passOn(bytes, callback) : this.passOn(bytes);
      this.passOn(bytes.subarray(0, bytes.length - rest.length));
      bytes = rest;
    }
    if (this.silent) {
      if (callback) process.nextTick(callback);
      return true;
    }
    const data = this.pending.length === 0 ? bytes : Buffer.concat([this.pending, bytes]);
    if (callback) this.waiting.push(callback);
    let offset = 0;
    let result = true;
    for (;;) {
      const size = frameSize(data, offset);
      if (size === undefined || offset + size > data.length) break;
      const frame = data.subarray(offset, offset + size);
      offset += size;
      const last = offset === data.length;
      // The callbacks go with the write that completes their bytes: ws calls back per message.
      const callbacks = last ? this.takeWaiting() : undefined;
      result = this.forward(frame, callbacks) && result;
      for (const injected of this.injections.splice(0)) this.send(injected, undefined);
    }
    // A partial frame waits for the rest, in memory of its own (the caller may reuse its buffer).
    this.pending = Buffer.from(data.subarray(offset));
    return result;
  }

  /**
   * Reads the upgrade's HTTP answer; returns the bytes after its head once it is complete (then
   * frames follow if it was a 101), or undefined while it is not.
   */
  private readHead(bytes: Buffer): Buffer | undefined {
    const before = this.head.length;
    this.head += bytes.toString('latin1');
    const end = this.head.indexOf('\r\n\r\n');
    if (end < 0) {
      // A head this long is nothing the simulator sends: let everything through from here on.
      if (this.head.length > HEAD_MAX) this.mode = 'http';
      return undefined;
    }
    this.mode = /^HTTP\/1\.1 101 /.test(this.head) ? 'frames' : 'http';
    const rest = bytes.subarray(end + 4 - before);
    this.head = '';
    return this.mode === 'frames' ? rest : undefined;
  }

  private takeWaiting(): WriteCallback[] {
    const callbacks = this.waiting;
    this.waiting = [];
    return callbacks;
  }

  private forward(frame: Buffer, callbacks: WriteCallback[] | undefined): boolean {
    const done = callbacks && callbacks.length > 0 ? chain(callbacks) : undefined;
    const text = textOf(frame);
    if (text !== undefined) {
      for (const change of this.changes()) {
        if (!change.test(text)) continue;
        const changed = change.change(text);
        change.changed?.(this.now());
        return this.send(textFrame(changed), done, changed);
      }
    }
    return this.send(frame, done, text);
  }

  private send(frame: Buffer, done: WriteCallback | undefined, text?: string): boolean {
    this.lastFrameAt = this.now();
    this.lastFrameText = (text ?? textOf(frame) ?? '').slice(0, 80);
    return done ? this.passOn(frame, done) : this.passOn(frame);
  }
}

/** Bytes of the frame starting at `offset` (header and payload), or undefined until its header is in. */
function frameSize(data: Buffer, offset: number): number | undefined {
  if (data.length - offset < 2) return undefined;
  const second = data[offset + 1] as number;
  const masked = (second & 0x80) !== 0 ? 4 : 0;
  const short = second & 0x7f;
  if (short < 126) return 2 + masked + short;
  if (short === 126) {
    if (data.length - offset < 4) return undefined;
    return 4 + masked + data.readUInt16BE(offset + 2);
  }
  if (data.length - offset < 10) return undefined;
  const high = data.readUInt32BE(offset + 2);
  const low = data.readUInt32BE(offset + 6);
  return 10 + masked + high * 2 ** 32 + low;
}

/** The payload of an unfragmented, unmasked text frame, else undefined. */
function textOf(frame: Buffer): string | undefined {
  const first = frame[0] as number;
  const second = frame[1] as number;
  if ((first & FIN) === 0 || (first & 0x0f) !== OPCODE_TEXT || (second & 0x80) !== 0) return undefined;
  const short = second & 0x7f;
  const head = short < 126 ? 2 : short === 126 ? 4 : 10;
  return frame.toString('utf8', head);
}

export function textFrame(text: string): Buffer {
  const payload = Buffer.from(text, 'utf8');
  const head = textFrameHeaderLength(payload.length);
  const frame = Buffer.allocUnsafe(head + payload.length);
  writeTextFrameHeader(frame, payload.length);
  payload.copy(frame, head);
  return frame;
}

function chain(callbacks: readonly WriteCallback[]): WriteCallback {
  return (err) => {
    for (const callback of callbacks) callback(err);
  };
}
