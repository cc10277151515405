import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { controlPlaneError } from './errors';

/** The cookie the console page sets, because an EventSource cannot send an Authorization header. */
export const CONSOLE_TOKEN_COOKIE = 'racedata_sim_control';

function same(given: string, wanted: string): boolean {
  const a = Buffer.from(given, 'utf8');
  const b = Buffer.from(wanted, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

function cookie(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      // A cookie that is not valid percent-encoding holds no token: answered 401 like a wrong one.
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/**
 * CONTROL_TOKEN for the console page, its assets and GET /_sim/stream only: besides the
 * Authorization header, `?token=` or the console's cookie. Every other /_sim/* route takes the
 * header alone (the console's own fetches send it).
 */
export function checkConsoleToken(req: IncomingMessage, url: URL, token: string | undefined): void {
  if (token === undefined) return;
  const header = req.headers.authorization ?? '';
  const candidates = [
    header.startsWith('Bearer ') ? header.slice(7) : undefined,
    url.searchParams.get('token') ?? undefined,
    cookie(req, CONSOLE_TOKEN_COOKIE),
  ];
  if (candidates.some((given) => given !== undefined && same(given, token))) return;
  throw controlPlaneError(
    'CONTROL_UNAUTHORIZED',
    'the console needs the CONTROL_TOKEN: open /_sim/ui?token=<CONTROL_TOKEN> (or send Authorization: Bearer)',
  );
}

/** Remembers a valid `?token=` for the page's assets and stream, for this browser session only. */
export function rememberConsoleToken(res: ServerResponse, url: URL, token: string | undefined): void {
  if (token === undefined || url.searchParams.get('token') !== token) return;
  res.setHeader(
    'set-cookie',
    `${CONSOLE_TOKEN_COOKIE}=${encodeURIComponent(token)}; Path=/; HttpOnly; SameSite=Strict`,
  );
}
