import { request } from 'node:http';
import { fromFetch, fromNodeHeaders, type OpenApiConformance } from './openapi-conformance';

export interface CallOptions {
  /** Sent as JSON with content-type application/json (unless `headers` says otherwise). */
  readonly json?: unknown;
  /** Sent as is. */
  readonly body?: string;
  readonly headers?: Record<string, string>;
}

export interface Called {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** Parsed for its content type by the conformance check. */
  readonly body: unknown;
}

export type CheckedCall = (method: string, path: string, options?: CallOptions) => Promise<Called>;

/** fetch, with every answer held against the served document (see OpenApiConformance.check). */
export function checkedClient(api: OpenApiConformance, base: string): CheckedCall {
  return async (method, path, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    let body = options.body;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['content-type'] ??= 'application/json';
    }
    if (headers.host !== undefined) return forgedHost(api, base, method, path, headers, body, options.json);
    const res = await fetch(base + path, { method, headers, ...(body !== undefined && { body }) });
    const text = await res.text();
    const parsed = api.check(method, path, fromFetch(res, text), options.json);
    return { status: res.status, headers: res.headers, text, body: parsed };
  };
}

/** fetch always sends the real Host; a forged one (a DNS-rebound name) goes through node:http. */
function forgedHost(
  api: OpenApiConformance,
  base: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body: string | undefined,
  json: unknown,
): Promise<Called> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        try {
          const text = Buffer.concat(chunks).toString('utf8');
          const status = res.statusCode ?? 0;
          const parsed = api.check(method, path, fromNodeHeaders(status, res.headers, text), json);
          const answerHeaders = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            if (value !== undefined) answerHeaders.set(name, Array.isArray(value) ? value.join(', ') : value);
          }
          resolve({ status, headers: answerHeaders, text, body: parsed });
        } catch (err) {
          reject(err as Error);
        }
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Sends a WebSocket upgrade request with exactly these headers and resolves with the answer,
 * 101 or a refusal, held against the document; a switched socket is closed at once.
 */
export function checkedUpgrade(
  api: OpenApiConformance,
  base: string,
  path: string,
  headers: Record<string, string>,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { headers: { connection: 'Upgrade', ...headers } });
    req.on('upgrade', (res, socket) => {
      socket.destroy();
      try {
        api.check('GET', path, fromNodeHeaders(res.statusCode ?? 0, res.headers, ''));
        resolve(res.statusCode ?? 0);
      } catch (err) {
        reject(err as Error);
      }
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        try {
          const text = Buffer.concat(chunks).toString('utf8');
          api.check('GET', path, fromNodeHeaders(res.statusCode ?? 0, res.headers, text));
          resolve(res.statusCode ?? 0);
        } catch (err) {
          reject(err as Error);
        }
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** A concrete path for a template, for the checks that go over every documented operation. */
export function concretePath(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{([^}]+)\}/g, (_m, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`no value for {${name}} of ${template}`);
    return encodeURIComponent(value);
  });
}
