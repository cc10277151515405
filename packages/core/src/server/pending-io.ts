import type { Socket } from 'node:net';

/**
 * Resolves after two turns of the event loop, so everything the kernel already had for the
 * process's sockets (a request, a FIN, a reset) has been read by then. A timer that comes due
 * while the process was stalled runs before the I/O that arrived meanwhile (the loop runs timers
 * first); whatever a timer decides about a connection must wait for that I/O.
 */
export function afterPendingIo(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}

/**
 * Destroys the socket once the I/O already waiting for it has been read. A client's reset read
 * first makes the close an error close, which tells a long poll its answer was not read; destroyed
 * straight from a timer, the same close would look clean.
 */
export function destroyAfterPendingIo(socket: Socket): void {
  void afterPendingIo().then(() => socket.destroy());
}
