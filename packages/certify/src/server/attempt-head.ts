import type { Socket } from 'node:net';

/** What a connection attempt's request head says about who made it. */
export interface AttemptHead {
  readonly authorization: string | undefined;
  /** It asked for a WebSocket (event stream, STOMP). */
  readonly upgrade: boolean;
  readonly remoteAddress: string | undefined;
}

/** How long an attempt may take to send its request head before it counts as unread. */
export const HEAD_WAIT_MS = 500;
/** A head past this is not read further (a request head of a real client is far smaller). */
const HEAD_MAX_BYTES = 16 * 1024;

/**
 * Reads the request head a connection attempt sends first, without answering it; undefined when
 * none came complete within HEAD_WAIT_MS or HEAD_MAX_BYTES, or the connection ended first. The
 * caller closes the socket either way.
 */
export function readAttemptHead(socket: Socket): Promise<AttemptHead | undefined> {
  return new Promise((resolve) => {
    let text = '';
    const done = (head: AttemptHead | undefined) => {
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('close', onEnd);
      socket.off('error', onEnd);
      resolve(head);
    };
    const onEnd = () => done(undefined);
    const onData = (chunk: Buffer) => {
      // latin1 keeps every byte one character, so the length bound is a byte bound.
      text += chunk.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      if (end >= 0) done(parseHead(text.slice(0, end), socket.remoteAddress));
      else if (text.length > HEAD_MAX_BYTES) done(undefined);
    };
    const timer = setTimeout(onEnd, HEAD_WAIT_MS);
    socket.on('data', onData);
    socket.once('close', onEnd);
    socket.once('error', onEnd);
  });
}

function parseHead(head: string, remoteAddress: string | undefined): AttemptHead {
  let authorization: string | undefined;
  let upgrade = false;
  for (const line of head.split('\r\n').slice(1)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === 'authorization') authorization ??= value;
    else if (name === 'upgrade') upgrade ||= value.toLowerCase() === 'websocket';
  }
  return { authorization, upgrade, remoteAddress };
}
