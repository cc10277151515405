import type { IncomingMessage, ServerResponse } from 'node:http';

/** Where a client started by hand (--attach) can read its variables: a container, a CI step. */
export const VARIABLES_PATH = '/_sim/certify/variables';

/** A Host header certify may build addresses on: a name or an IPv4/IPv6 address, and a port. */
const HOST = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9][A-Za-z0-9.-]{0,252})(:\d{1,5})?$/;

/**
 * GET /_sim/certify/variables: the RACEDATA_* variables as `NAME=value` lines (`?format=json`:
 * an object). Addresses are given on the host the request came to, so a client container that
 * reached certify as `certify:9000` gets `RACEDATA_URL=http://certify:9000`. Only what the
 * client is started with anyway is here; the simulator's GET /_sim/users shows as much.
 */
export function answerVariables(
  req: IncomingMessage,
  res: ServerResponse,
  variables: Readonly<Record<string, string>> | undefined,
  served: string,
): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' });
    res.end('GET only\n');
    return;
  }
  if (!variables) {
    res.writeHead(503, { 'retry-after': '1', 'content-type': 'text/plain; charset=utf-8' });
    res.end('the certification has not started yet\n');
    return;
  }
  const host = req.headers.host ?? '';
  const shown = HOST.test(host) ? onHost(variables, served, host) : variables;
  const json = new URL(req.url ?? '/', 'http://x').searchParams.get('format') === 'json';
  const body = json
    ? `${JSON.stringify(shown)}\n`
    : Object.entries(shown)
        .map(([name, value]) => `${name}=${value}\n`)
        .join('');
  res.writeHead(200, {
    'content-type': json ? 'application/json; charset=utf-8' : 'text/plain; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** The variables with `served` (`127.0.0.1:9000`) in their addresses replaced by `host`. */
function onHost(
  variables: Readonly<Record<string, string>>,
  served: string,
  host: string,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(variables).map(([name, value]) => [
      name,
      value.replace(new RegExp(`^(https?|wss?)://${escape(served)}(?=/|$)`), `$1://${host}`),
    ]),
  );
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
