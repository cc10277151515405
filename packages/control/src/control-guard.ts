import type { IncomingMessage, RequestListener } from 'node:http';
import { coreError, hostName, isAllowedHost, type SimError, type SimulatorSettings } from '@racedata/core';
import { controlPlaneError } from './errors';
import { CONTROL_PREFIX, sendJson } from './control-plane';
import { requestUrl } from './request-url';

/** Methods a page can send without changing anything; every other one is a change. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** State-changing routes whose body is not JSON: seeding takes NDJSON and reads it itself. */
const NOT_JSON = new Set(['POST /_sim/events']);

const quoted = (text: string) => JSON.stringify(text.slice(0, 80));

/**
 * What keeps a browser from driving /_sim/* on another site's behalf. A page elsewhere can send
 * a no-cors fetch or a form post here (text/plain, form-encoded or multipart bodies) with its
 * own Origin, and a DNS-rebound name puts the attacker's host name in Host. Clients that are not
 * browsers send no Origin and may send any Host we answer to, so curl and test suites are
 * unaffected unless they post a JSON body without saying so.
 */
export function withControlGuard(
  inner: RequestListener,
  settings: Pick<SimulatorSettings, 'controlApi' | 'controlAllowedHosts'>,
): RequestListener {
  if (settings.controlApi === 'off') return inner;
  return (req, res) => {
    if (!(req.url ?? '').startsWith(CONTROL_PREFIX)) {
      inner(req, res);
      return;
    }
    const refusal = refuse(req, settings.controlAllowedHosts);
    if (!refusal) {
      inner(req, res);
      return;
    }
    sendJson(res, refusal.status, { status: 'fail', code: refusal.code, message: refusal.message });
  };
}

function refuse(req: IncomingMessage, allowedHosts: readonly string[]): SimError | undefined {
  const host = req.headers.host;
  // An HTTP/1.0 client may send no Host; a browser always sends one.
  if (host !== undefined) {
    const name = hostName(host);
    if (name === undefined || !isAllowedHost(name, allowedHosts)) {
      return controlPlaneError(
        'CONTROL_HOST_REFUSED',
        `Host ${quoted(host)} is not a name this simulator answers to on /_sim/* (a guard against DNS ` +
          `rebinding): it takes localhost, IP addresses and CONTROL_ALLOWED_HOSTS ` +
          `(${allowedHosts.join(',')}); add the name there (--control-allowed-hosts), or * for any`,
      );
    }
  }
  const method = req.method ?? 'GET';
  if (SAFE_METHODS.has(method)) return undefined;
  const origin = req.headers.origin;
  if (origin !== undefined && !sameOrigin(origin, host)) {
    return controlPlaneError(
      'CONTROL_ORIGIN_REFUSED',
      `a page from ${quoted(origin)} may not change this simulator: /_sim/* takes ${method} from ` +
        `its own console (Origin on Host ${quoted(host ?? '')}) and from clients that send no Origin`,
    );
  }
  const path = requestUrl(req).pathname;
  if (hasBody(req) && !NOT_JSON.has(`${method} ${path}`) && !isJson(req.headers['content-type'])) {
    return coreError(
      'UNSUPPORTED_MEDIA_TYPE',
      `${method} ${path.slice(0, 80)} takes a JSON body: send Content-Type: application/json ` +
        `(got ${req.headers['content-type'] === undefined ? 'none' : quoted(req.headers['content-type'])})`,
    );
  }
  return undefined;
}

/** Whether the page's origin is this simulator as the browser addressed it (Host). */
function sameOrigin(origin: string, host: string | undefined): boolean {
  if (host === undefined) return false;
  try {
    const page = new URL(origin);
    // Read Host with the page's scheme, so a default port (80, 443) compares equal either way.
    return page.origin === origin.toLowerCase() && page.host === new URL(`${page.protocol}//${host}`).host;
  } catch {
    // `null` (a sandboxed frame, a file) and anything else that is not an origin.
    return false;
  }
}

function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

function isJson(contentType: string | undefined): boolean {
  return contentType?.split(';')[0]?.trim().toLowerCase() === 'application/json';
}
