import { CLOSE_GRACE_MS } from './ws-constants';

/** The part of a `ws` WebSocket these helpers use (core does not depend on `ws`). */
export interface WsLike {
  readonly readyState: number;
  readonly bufferedAmount: number;
  send(data: string, options?: { binary?: boolean }): void;
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

/**
 * Sends unless the socket is no longer open; a client that does not read is dropped (its socket
 * terminated) rather than buffered for without bound. True when the data was handed to the socket.
 */
export function sendBounded(ws: WsLike, data: string, limit: SendLimit): boolean {
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
