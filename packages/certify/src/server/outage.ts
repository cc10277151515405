import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { OutageOutcome, OutagePlan } from '../types';
import { readAttemptHead, type AttemptHead } from './attempt-head';

export interface OutageTarget {
  readonly server: Server;
  /** Every open connection of the server. */
  readonly sockets: ReadonlySet<Socket>;
  readonly port: number;
  readonly host: string;
  readonly now: () => number;
  /**
   * With --attach: whether an attempt is the certified client's, from its request head (read
   * before the attempt is closed). Without it every attempt is the client's and is closed unread.
   */
  readonly attribute?: (head: AttemptHead | undefined) => boolean;
}

/** The longest wait for the dropped connections to be gone before the port counts as closed. */
const CLOSE_WAIT_MS = 1_000;
/** Between attempts to take the port back, should another process hold it a moment. */
const RELISTEN_EVERY_MS = 100;

/**
 * The simulator goes away and comes back with its state: every connection is dropped and the
 * port closed, then it accepts and closes connections, then it answers again. The simulator
 * behind the server is never stopped, so its stored events, queues and eventIds carry on as
 * after a restart that kept its data. `signal` (the run stopping) ends the outage early; the
 * port is then left closed for the server's own close().
 */
export async function outage(
  target: OutageTarget,
  plan: OutagePlan,
  signal: AbortSignal,
): Promise<OutageOutcome> {
  const { server, sockets, now } = target;
  const downAt = now();
  const dropped = sockets.size;
  await new Promise<void>((resolve) => {
    // A connection that slipped past the set must not keep the port from closing for good.
    const late = setTimeout(resolve, CLOSE_WAIT_MS);
    server.close(() => {
      clearTimeout(late);
      resolve();
    });
    for (const socket of [...sockets]) socket.destroy();
  });
  const attempts: number[] = [];
  let foreign = 0;
  const reading = new Set<Promise<void>>();
  const { attribute } = target;
  const refuse = (socket: Socket) => {
    const at = now();
    if (attribute === undefined) {
      attempts.push(at);
      socket.destroy();
      return;
    }
    // Another process may knock on the same port (--attach): only the client's attempts count.
    const read = readAttemptHead(socket).then((head) => {
      socket.destroy();
      if (attribute(head)) attempts.push(at);
      else foreign++;
      reading.delete(read);
    });
    reading.add(read);
  };
  if (!(await wait(plan.refusedMs, signal))) return { downAt, dropped, attempts };
  // In place of the server's own listeners (HTTP's included, restored after): an attempt is
  // closed without HTTP reading a byte of it, let alone the simulator answering it.
  const listeners = server.listeners('connection') as Array<(socket: Socket) => void>;
  server.removeAllListeners('connection');
  server.on('connection', refuse);
  let closingAt: number | undefined;
  let error: string | undefined;
  const closingEnds = downAt + plan.refusedMs + plan.closingMs;
  try {
    for (;;) {
      error = await listen(server, target.port, target.host);
      if (error === undefined) {
        closingAt = now();
        break;
      }
      const retryEnd = closingEnds + plan.closingMs;
      if (now() >= retryEnd || !(await wait(RELISTEN_EVERY_MS, signal))) break;
    }
    if (closingAt !== undefined) await wait(Math.max(0, closingEnds - now()), signal);
  } finally {
    server.off('connection', refuse);
    for (const listener of listeners) server.on('connection', listener);
  }
  const backAt = now();
  // The heads still being read (HEAD_WAIT_MS at most) decide the last attempts.
  await Promise.all([...reading]);
  attempts.sort((a, b) => a - b);
  const counted = { dropped, attempts, ...(attribute !== undefined && { foreign }) };
  if (closingAt === undefined) {
    return { downAt, ...counted, error: error ?? 'the run stopped during the outage' };
  }
  if (signal.aborted) return { downAt, closingAt, ...counted };
  return { downAt, closingAt, backAt, ...counted };
}

function listen(server: Server, port: number, host: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const onError = (err: Error) => {
      server.off('listening', onListening);
      resolve(err.message);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve(undefined);
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

/** Resolves true after `ms`, or false at once when `signal` is (or becomes) aborted. */
function wait(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
