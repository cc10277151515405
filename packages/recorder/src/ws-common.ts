import type { IncomingMessage } from 'node:http';
import type { TransportContext } from './transport-context';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The bytes as UTF-8 text, or undefined when they are not UTF-8 (then they are no message). */
export function rawText(bytes: Buffer): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * A WebSocket upgrade the server answered with something else than 101: logged once per cause
 * per interval with its status (and, for a 3xx, where it pointed: never followed, as the HTTP
 * requests' redirects are not).
 */
export function upgradeRefused(
  ctx: TransportContext,
  transport: 'stream' | 'stomp',
  res: IncomingMessage,
  url: string,
): void {
  const status = res.statusCode ?? 0;
  res.resume();
  const what = transport === 'stream' ? 'event stream handshake refused' : 'STOMP upgrade refused';
  if (status >= 300 && status < 400) {
    let target = 'none';
    const location = res.headers.location;
    if (location) {
      try {
        const to = new URL(location, url.replace(/^ws/, 'http'));
        target = `${to.origin}${to.pathname}`.slice(0, 200);
      } catch {
        target = 'an unreadable Location';
      }
    }
    ctx.causes.warn(
      `${transport}: redirect ${status} ${target}`,
      { transport, status, target, reason: `redirect ${status} to ${target} not followed` },
      what,
    );
    return;
  }
  ctx.causes.warn(`${transport}: upgrade ${status}`, { transport, status }, what);
}
