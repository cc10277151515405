/** Waits `ms`; injected so a test decides how long a back-off really lasts. */
export type Wait = (ms: number) => Promise<void>;

export const realWait: Wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * POST /customerapi/authenticate/subscription with the key and secret; the token comes back in
 * the `authorization` response header, as the interface describes.
 */
export async function authenticate(baseUrl: string, key: string, secret: string): Promise<string> {
  const res = await fetch(`${baseUrl}/customerapi/authenticate/subscription`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ key, secret }),
  });
  if (res.status !== 200) throw new Error(`authentication failed with ${res.status}: ${await res.text()}`);
  const header = res.headers.get('authorization') ?? '';
  const token = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
  if (!token) throw new Error(`no bearer token in the authorization header "${header}"`);
  return token;
}

/** Seconds from a Retry-After header, else the fallback; never longer than a minute. */
export function retryAfterMs(header: string | null, fallbackMs: number): number {
  const seconds = header === null ? Number.NaN : Number(header);
  return Number.isFinite(seconds) && seconds >= 0 ? Math.min(seconds * 1000, 60_000) : fallbackMs;
}

export interface Credentials {
  readonly baseUrl: string;
  readonly key: string;
  readonly secret: string;
}
