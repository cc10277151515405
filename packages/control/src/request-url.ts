import type { IncomingMessage } from 'node:http';

/**
 * The request's target as a URL on a fixed origin. `new URL(req.url, base)` reads a target such
 * as `//?x` as a URL with an empty host and throws, which took the whole process down; here the
 * target is always a path, the one a router compares, and anything unreadable is `/`.
 */
export function requestUrl(req: Pick<IncomingMessage, 'url'>): URL {
  const target = req.url ?? '/';
  try {
    return new URL(`http://sim${target.startsWith('/') ? target : `/${target}`}`);
  } catch {
    return new URL('http://sim/');
  }
}
