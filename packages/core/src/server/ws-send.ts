import { CLOSE_GRACE_MS } from './ws-constants';
import { textFramePayloads } from './ws-frame';

/** The part of a `ws` WebSocket these helpers use (core does not depend on `ws`). */
export interface WsLike {
  readonly readyState: number;
  readonly bufferedAmount: number;
  send(data: string | Buffer, options?: { binary?: boolean }): void;
  close(code: number, reason: string): void;
  terminate(): void;
  once(event: 'close', listener: () => void): unknown;
}

/** WebSocket.OPEN. */
const OPEN = 1;

export interface SendLimit {
  /** Unsent bytes a client may build up before it is dropped. */
  readonly maxBufferedBytes: number;
  /** Told before the drop, with the bytes the client left unread; for the log line. */
  readonly onDrop: (buffered: number) => void;
  readonly binary?: boolean;
}

/** A text message already framed (ws-frame.ts): the whole frame, and its UTF-8 payload. */
export interface FramedText {
  /** Header and payload. */
  readonly frame: Buffer;
  /** The UTF-8 payload (a view into `frame`). */
  readonly payload: Buffer;
}

/**
 * Sends unless the socket is no longer open; a client that does not read is dropped (its socket
 * terminated) rather than buffered for without bound. True when the data was handed to the socket.
 * A FramedText is sent as a text message, its frame bytes written as they are (see sendFrame).
 */
export function sendBounded(ws: WsLike, data: string | FramedText, limit: SendLimit): boolean {
  if (typeof data !== 'string') return sendFrame(ws, data, limit) !== 'dropped';
  if (ws.readyState !== OPEN) return false;
  if (ws.bufferedAmount > limit.maxBufferedBytes) {
    limit.onDrop(ws.bufferedAmount);
    ws.terminate();
    return false;
  }
  ws.send(data, limit.binary === undefined ? undefined : { binary: limit.binary });
  return true;
}

/**
 * What became of a framed text: `written` when the socket passed its bytes on at once and holds
 * no reference to them (the frame's memory may be reused), `queued` when it was sent but its
 * bytes wait in a queue, `dropped` when it was not sent (socket not open, or client dropped).
 */
export type FrameSent = 'written' | 'queued' | 'dropped';

/** The parts of a `ws` (8.x) WebSocket sendFrame looks at; none is public API, so each is checked. */
interface WsInternals {
  readonly _socket?: { write(chunk: Buffer): boolean; readonly writableLength: number };
  readonly _sender?: {
    readonly _state?: number;
    readonly _queue?: readonly unknown[];
    readonly _bufferedBytes?: number;
  };
}

/** The TCP socket a connection's frames may be written to as they are. */
export type FrameSocket = NonNullable<WsInternals['_socket']>;

/** The TCP socket of a ws WebSocket that frames may be written to as they are, if there is one. */
function directSocket(ws: WsLike): WsInternals['_socket'] {
  const { _socket: socket, _sender: sender } = ws as WsLike & WsInternals;
  return socket !== undefined && sender?._state === 0 && (sender._queue?.length ?? 0) === 0
    ? socket
    : undefined;
}

/**
 * The TCP socket frames may be written to as they are for the whole life of an open connection,
 * or undefined: resolved once, when the connection opens, so that a fan-out reads neither the
 * sender's state nor its queue per delivery. At a thousand sessions each is a cache miss, and
 * those misses were most of the fan-out's own CPU (the fan-out profile under perf).
 *
 * Why once is enough: ws's sender queues a frame only while it compresses one or reads a Blob.
 * A connection that negotiated no extension never compresses, and neither simulator sends a
 * Blob, so a sender idle now stays idle, and nothing it holds can be overtaken by a direct write.
 */
export function lifelongSocket(ws: WsLike): FrameSocket | undefined {
  if ((ws as WsLike & { readonly extensions?: string }).extensions !== '') return undefined;
  return directSocket(ws);
}

/**
 * Bytes the client has not read yet, read as ws's bufferedAmount reads them (the socket's buffer
 * and the sender's queue) but without the getter's extra work: at a fan-out to a thousand
 * sessions this runs per delivery. A lifelongSocket() has no sender queue to count.
 */
function unread(ws: WsLike, socket: WsInternals['_socket']): number {
  if (socket === undefined) return ws.bufferedAmount;
  return socket.writableLength + ((ws as WsLike & WsInternals)._sender?._bufferedBytes ?? 0);
}

/**
 * Whether a client may be handed `more` bytes: false, and the client dropped (its socket
 * terminated), when what it has not read would pass the limit; false when it is not open.
 * `socket` is the connection's lifelongSocket(), when it has one.
 */
export function admitBytes(ws: WsLike, more: number, limit: SendLimit, socket?: FrameSocket): boolean {
  if (ws.readyState !== OPEN) return false;
  const buffered = (socket === undefined ? unread(ws, directSocket(ws)) : socket.writableLength) + more;
  if (buffered <= limit.maxBufferedBytes) return true;
  limit.onDrop(buffered);
  ws.terminate();
  return false;
}

/**
 * sendBounded for a framed text. When the socket's sender has nothing queued (no compression or
 * blob read in progress; this server negotiates neither), the frame is written straight to the
 * TCP socket: the same bytes for every client, no per-client encoding, header or two-part write.
 * Otherwise, and for any other WebSocket implementation, the frame goes through send() as a
 * text message, and counts as queued.
 */
export function sendFrame(ws: WsLike, data: FramedText, limit: SendLimit): FrameSent {
  if (!admitWrite(ws, limit)) return 'dropped';
  return writeFramed(ws, data.frame, data);
}

/**
 * sendFrame for several framed texts laid out back to back in `frames` (each a complete server
 * text frame, ws-frame.ts): one write to the socket when it can take them directly, else each
 * one's payload through send(), in order.
 */
export function sendFrames(ws: WsLike, frames: Buffer, limit: SendLimit): FrameSent {
  if (!admitWrite(ws, limit)) return 'dropped';
  return writeFramed(ws, frames, undefined);
}

/**
 * sendFrames for frames whose bytes admitBytes() already let through (a burst held since): no
 * second look at what the client left unread, which cannot have grown since (a connection
 * writes what it holds before anything else). Dropped only when the socket is no longer open.
 * At a fan-out this runs once per client and message, so it does no more than the write.
 */
export function writeAdmitted(ws: WsLike, frames: Buffer, socket?: FrameSocket): FrameSent {
  if (ws.readyState !== OPEN) return 'dropped';
  return socket === undefined ? writeFramed(ws, frames, undefined) : writeTo(socket, frames);
}

/** False, and the client dropped when it is over the limit, unless the socket may be written. */
function admitWrite(ws: WsLike, limit: SendLimit): boolean {
  if (ws.readyState !== OPEN) return false;
  const buffered = unread(ws, directSocket(ws));
  if (buffered <= limit.maxBufferedBytes) return true;
  limit.onDrop(buffered);
  ws.terminate();
  return false;
}

/** `one` is the framed text when `frames` holds just that one (its payload is then at hand). */
function writeFramed(ws: WsLike, frames: Buffer, one: FramedText | undefined): FrameSent {
  const socket = directSocket(ws);
  if (socket === undefined) {
    const payloads = one === undefined ? textFramePayloads(frames) : [one.payload];
    for (const payload of payloads) ws.send(payload, { binary: false });
    return 'queued';
  }
  return writeTo(socket, frames);
}

/** Frames written straight to the TCP socket: `written` when it took them whole at once. */
function writeTo(socket: FrameSocket, frames: Buffer): FrameSent {
  socket.write(frames);
  return socket.writableLength === 0 ? 'written' : 'queued';
}

/**
 * Starts a close handshake and cuts the socket if the peer has not finished it within graceMs
 * of real time, so a peer that never answers cannot hold up shutdown (or a test on a manual clock).
 */
export function closeWithGrace(ws: WsLike, code: number, reason: string, graceMs = CLOSE_GRACE_MS): void {
  // A close reason longer than 123 bytes is a protocol error; ours are cut well below that.
  ws.close(code, reason.slice(0, 120));
  const cut = setTimeout(() => ws.terminate(), graceMs);
  cut.unref();
  ws.once('close', () => clearTimeout(cut));
}
