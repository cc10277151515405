import { CLOSE_GRACE_MS } from './ws-constants';

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
  /** Header and payload; with `tail`, the header and the payload's first part. */
  readonly frame: Buffer;
  /**
   * The rest of the frame, shared by every client it goes to (a STOMP MESSAGE's headers and
   * body after its per-session lines): written after `frame` in the same writev.
   */
  readonly tail?: Buffer | undefined;
  /** The UTF-8 payload (a view into `frame`, or a copy when there is a tail). */
  readonly payload: Buffer;
}

/**
 * Sends unless the socket is no longer open; a client that does not read is dropped (its socket
 * terminated) rather than buffered for without bound. True when the data was handed to the socket.
 * A FramedText is sent as a text message, its frame bytes written as they are (see writeFrame).
 */
export function sendBounded(ws: WsLike, data: string | FramedText, limit: SendLimit): boolean {
  if (ws.readyState !== OPEN) return false;
  if (ws.bufferedAmount > limit.maxBufferedBytes) {
    limit.onDrop(ws.bufferedAmount);
    ws.terminate();
    return false;
  }
  if (typeof data !== 'string') writeFrame(ws, data);
  else ws.send(data, limit.binary === undefined ? undefined : { binary: limit.binary });
  return true;
}

/** The parts of a `ws` (8.x) WebSocket writeFrame looks at; none is public API, so each is checked. */
interface WsInternals {
  readonly _socket?: { write(chunk: Buffer): boolean; cork(): void; uncork(): void };
  readonly _sender?: { readonly _state?: number; readonly _queue?: readonly unknown[] };
}

/**
 * Writes a framed text message. When the socket's sender has nothing queued (no compression or
 * blob read in progress; this server negotiates neither), the frame is written straight to the
 * TCP socket: the same bytes for every client, no per-client encoding, header or two-part write,
 * and still counted by bufferedAmount (it reads the socket's own buffer). Otherwise, and for any
 * other WebSocket implementation, it goes through send() as a text message. A frame with a
 * shared tail is written as its two parts, so the tail is never copied per client.
 */
function writeFrame(ws: WsLike, data: FramedText): void {
  const { _socket: socket, _sender: sender } = ws as WsLike & WsInternals;
  if (socket && sender && sender._state === 0 && (sender._queue?.length ?? 0) === 0) {
    const tail = data.tail;
    if (tail === undefined) {
      socket.write(data.frame);
      return;
    }
    // Corked, the two parts leave in one writev, as ws sends a header and a payload.
    socket.cork();
    socket.write(data.frame);
    socket.write(tail);
    socket.uncork();
    return;
  }
  ws.send(data.payload, { binary: false });
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
