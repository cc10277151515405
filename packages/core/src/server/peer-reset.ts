import type { Socket } from 'node:net';

interface PeerNameHandle {
  getpeername?: (out: object) => number;
}

/**
 * True when the kernel has already torn the connection down: the peer answered with a reset.
 *
 * A client that hangs up (FIN) just before an answer reaches it leaves the answer unread, and
 * its kernel resets the connection when the answer arrives. Node cannot show that reset: once the
 * FIN is queued, every read returns end-of-stream, and a later close of our side looks clean. The
 * kernel does know: a reset connection has no peer any more, so getpeername fails (ENOTCONN),
 * while one that is merely half-closed (the client read the answer and closed) still has one.
 *
 * Only meaningful before our own FIN has gone out: after a clean exchange of FINs the connection
 * has no peer either. The handle's getpeername is Node's own binding of the system call (what
 * `socket.remoteAddress` uses, uncached); where it is missing the answer is "not reset".
 */
export function peerHasReset(socket: Socket): boolean {
  const handle = (socket as Socket & { _handle?: PeerNameHandle | null })._handle;
  if (!handle || typeof handle.getpeername !== 'function') return socket.destroyed;
  return handle.getpeername({}) !== 0;
}
