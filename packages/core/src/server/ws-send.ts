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

/**
 * sendBounded for a framed text. When the socket's sender has nothing queued (no compression or
 * blob read in progress; this server negotiates neither), the frame is written straight to the
 * TCP socket: the same bytes for every client, no per-client encoding, header or two-part write.
 * Its unsent bytes are read as ws's bufferedAmount reads them (the socket's buffer and the
 * sender's queue), once before and once after the write, without the getter's extra work: at a
 * fan-out to a thousand sessions these run per delivery. Otherwise, and for any other WebSocket
 * implementation, the frame goes through send() as a text message, and counts as queued.
 */
export function sendFrame(ws: WsLike, data: FramedText, limit: SendLimit): FrameSent {
  if (ws.readyState !== OPEN) return 'dropped';
  const { _socket: socket, _sender: sender } = ws as WsLike & WsInternals;
  const direct = socket !== undefined && sender?._state === 0 && (sender._queue?.length ?? 0) === 0;
  const buffered = direct ? socket.writableLength + (sender._bufferedBytes ?? 0) : ws.bufferedAmount;
  if (buffered > limit.maxBufferedBytes) {
    limit.onDrop(buffered);
    ws.terminate();
    return 'dropped';
  }
  if (!direct) {
    ws.send(data.payload, { binary: false });
    return 'queued';
  }
  socket.write(data.frame);
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
