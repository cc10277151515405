/**
 * How the console reaches its simulator: every path relative to where the page is served, so
 * it works at /_sim/ui and inside a sandbox at /sandboxes/{id}/_sim/ui. With CONTROL_TOKEN the
 * page is opened as /_sim/ui?token=...; the token is kept for the tab's session and sent as
 * Authorization on every control-plane call.
 */
const TOKEN_KEY = 'racedata-sim-control-token';

function initialToken(): string | undefined {
  const fromUrl = new URLSearchParams(location.search).get('token');
  try {
    if (fromUrl) sessionStorage.setItem(TOKEN_KEY, fromUrl);
    return fromUrl ?? sessionStorage.getItem(TOKEN_KEY) ?? undefined;
  } catch {
    // Storage can be off (privacy settings); the token from the address still works.
    return fromUrl ?? undefined;
  }
}

export const token = initialToken();

/** Everything before /_sim/ui: '' at the root, '/sandboxes/{id}' in a sandbox. */
export const basePath = location.pathname.replace(/\/_sim\/ui\/?$/, '');

/** The simulator's origin and base, as a curl command needs it. */
export const baseUrl = `${location.origin}${basePath}`;

export const simulatorKind: 'json' | 'legacy' =
  document.body.dataset.simulator === 'legacy' ? 'legacy' : 'json';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function headers(extra: Record<string, string> = {}): Record<string, string> {
  return token ? { ...extra, authorization: `Bearer ${token}` } : extra;
}

async function answer<T>(res: Response): Promise<T> {
  const text = await res.text();
  let body: unknown = undefined;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = text;
  }
  if (!res.ok) {
    const message =
      typeof body === 'object' && body !== null && 'message' in body
        ? String((body as { message: unknown }).message)
        : `${res.status} ${res.statusText}${typeof body === 'string' && body ? `: ${body}` : ''}`;
    throw new ApiError(res.status, message);
  }
  return body as T;
}

export async function getJson<T>(path: string): Promise<T> {
  return answer<T>(await fetch(basePath + path, { headers: headers(), cache: 'no-store' }));
}

export async function send<T>(method: 'POST' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const init: RequestInit =
    body === undefined
      ? { method, headers: headers() }
      : { method, headers: headers({ 'content-type': 'application/json' }), body: JSON.stringify(body) };
  return answer<T>(await fetch(basePath + path, init));
}

/**
 * Posts a raw body to a customer endpoint (no control token: those endpoints take none), with the
 * simulator's notice when no subscribed user is connected (x-racedata-notice, JSON simulator).
 */
export async function postRaw<T>(
  path: string,
  contentType: string,
  body: string,
): Promise<{ body: T; notice: string | undefined }> {
  const res = await fetch(basePath + path, {
    method: 'POST',
    headers: { 'content-type': contentType },
    body,
  });
  return { body: await answer<T>(res), notice: res.headers.get('x-racedata-notice') ?? undefined };
}

export function streamUrl(): string {
  return `${basePath}/_sim/stream${token ? `?token=${encodeURIComponent(token)}` : ''}`;
}

/** A shell word in single quotes, as a copied curl command needs it. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
